import type { KubeIdentityClient } from '../clients.js';
import type { ResourceType } from '../discovery.js';
import { notFound } from '../../errors.js';

type Schema = Record<string, unknown>;

/** The OpenAPI v3 schema of one kind: the root schema's name and every schema it reaches. */
export interface KindSchema {
  root: string;
  schemas: Record<string, Schema>;
}

interface OpenApiDocument {
  components?: { schemas?: Record<string, Schema> };
}

interface GroupVersionKind {
  group?: string;
  version?: string;
  kind?: string;
}

const refPrefix = '#/components/schemas/';

function rootName(schemas: Record<string, Schema>, type: ResourceType): string | undefined {
  return Object.keys(schemas).find((name) => {
    const kinds = (schemas[name]?.['x-kubernetes-group-version-kind'] ?? []) as GroupVersionKind[];
    return kinds.some((gvk) => (gvk.group ?? '') === type.group && gvk.version === type.version && gvk.kind === type.kind);
  });
}

/** Every `$ref` inside a schema. */
function refsIn(value: unknown, found: string[] = []): string[] {
  if (Array.isArray(value)) for (const item of value) refsIn(item, found);
  else if (value && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      if (key === '$ref' && typeof inner === 'string' && inner.startsWith(refPrefix)) found.push(inner.slice(refPrefix.length));
      else refsIn(inner, found);
    }
  }
  return found;
}

/** The root schema and the schemas it reaches through `$ref`. */
export function reachableSchemas(schemas: Record<string, Schema>, root: string): Record<string, Schema> {
  const picked: Record<string, Schema> = {};
  const queue = [root];
  for (let name = queue.shift(); name !== undefined; name = queue.shift()) {
    const schema = schemas[name];
    if (!schema || picked[name]) continue;
    picked[name] = schema;
    queue.push(...refsIn(schema));
  }
  return picked;
}

/**
 * The kind's schema from the API server's OpenAPI v3 document of its group version
 * (`/openapi/v3/apis/<group>/<version>`, `/openapi/v3/api/v1` for the core group), read with the caller's client.
 */
export async function kindSchema(client: KubeIdentityClient, type: ResourceType): Promise<KindSchema> {
  const path = type.group ? `/openapi/v3/apis/${type.group}/${type.version}` : `/openapi/v3/api/${type.version}`;
  const document = await client.rest.json<OpenApiDocument>('GET', path, { target: `openapi ${type.group || 'core'}/${type.version}` });
  const schemas = document.components?.schemas ?? {};
  const root = rootName(schemas, type);
  if (!root) throw notFound(`no OpenAPI schema for ${type.kind}`, { kind: type.kind });
  return { root, schemas: reachableSchemas(schemas, root) };
}
