import { z } from 'zod';
import { applyObject } from '../../kube/objects/apply.js';
import { kindSchema } from '../../kube/objects/kind-schema.js';
import { requireNamespace, toYaml, type KubeObject } from '../../kube/objects/resources.js';
import { objectNameSchema, namespaceSchema } from '../../kube/cache/names.js';
import { maskedValue, maskObject, secretKindOf } from '../../rbac/secret-masking.js';
import { validation } from '../../errors.js';
import { secretVisibility } from '../../rbac/secret-visibility.js';
import type { ResourceType } from '../../kube/discovery.js';
import { anyObject } from '../schemas/api-schemas.js';
import { audited, type AuditContextDeps } from '../audit-context.js';
import { kubeOf, resourceTypeOf } from '../request-state.js';
import { route, type RouteSpec } from '../types.js';
import { queryBoolean } from '../schemas/validate.js';

/** What this module uses of the composed services (src/app/compose.ts hands it exactly these). */
export type ApplyRouteDeps = AuditContextDeps;

const resourceParam = z
  .string()
  .max(253)
  .regex(/^[a-zA-Z][a-zA-Z0-9.-]*$/, 'must be a resource type name such as pods or deployments.apps');
const typeParams = z.object({ resource: resourceParam });
const applyQuery = z.object({
  dryRun: queryBoolean.optional().describe('true: server-side dry run, nothing changes (the answer is what the object would become)'),
  force: queryBoolean.optional().describe('true: take over fields other managers own instead of answering 409'),
});
/** The object to apply (sent as JSON, or as YAML with Content-Type application/yaml). */
const manifest = z
  .looseObject({
    apiVersion: z.string().min(1).max(253),
    kind: z.string().min(1).max(253),
    metadata: z.looseObject({ name: objectNameSchema, namespace: namespaceSchema.optional() }),
  })
  .meta({ id: 'Manifest' });
const applyResult = z
  .object({
    object: anyObject,
    yaml: z.string().describe('The resulting object as YAML (managedFields stripped), for diffs against /yaml'),
    created: z.boolean(),
    dryRun: z.boolean(),
  })
  .meta({ id: 'ApplyResult' });
const kindSchemaResponse = z.object({ root: z.string(), schemas: z.record(z.string(), anyObject) }).meta({ id: 'KindSchema' });

function applyLine(type: ResourceType, name: string, namespace: string | undefined, options: { dryRun: boolean; force: boolean }): string {
  const resource = type.group ? `${type.plural}.${type.group}` : type.plural;
  const flags = [options.dryRun ? ' --dry-run=server' : '', options.force ? ' --force-conflicts' : '', namespace ? ` -n ${namespace}` : ''].join('');
  return `kubectl apply --server-side --field-manager=pilothouse -f - # ${resource}/${name}${flags}`;
}

/** Refuses a Secret (or MCPServer env) that still holds the mask a read showed instead of its values. */
function refuseMaskedValues(object: KubeObject): void {
  if (!secretKindOf(object)) return;
  const values = [object.data, object.stringData, (object.spec as { env?: unknown } | undefined)?.env];
  const masked = values.some((group) => group && typeof group === 'object' && Object.values(group).includes(maskedValue));
  if (masked) throw validation(`the manifest holds masked values (${maskedValue}); send the real values`, { fields: { data: 'masked' } });
}

/**
 * The namespace of a namespaced object whose manifest names none. The route declares it
 * (`defaultNamespace`), so the policy decides on the namespace the handler writes to; both read
 * the object's `metadata` only (src/http/pipeline/request-field.ts).
 */
const applyDefaultNamespace = 'default';

/**
 * Refuses a top-level `name` or `namespace` beside `metadata`: no part of the object (the API server
 * would refuse the field), and a second answer to where the object goes. The decision and the write
 * read `metadata` only.
 */
function refuseTopLevelNames(object: KubeObject): void {
  const given = ['name', 'namespace'].filter((field) => field in object);
  if (given.length > 0)
    throw validation(`${given.join(' and ')} belong in metadata`, { fields: Object.fromEntries(given.map((field) => [field, 'belongs in metadata'])) });
}

/** Edit and create: server-side apply of a manifest, and the kind's OpenAPI schema for the editor. */
export function applyRoutes(deps: ApplyRouteDeps): RouteSpec[] {
  return [
    route({
      method: 'POST',
      path: '/api/k8s/:resource/apply',
      permission: 'execute_write',
      cluster: true,
      resourceKind: ':resource',
      defaultNamespace: applyDefaultNamespace,
      // Creates the object when it does not exist: decided as patch and create of it, as through the AI's proxy.
      serverSideApply: true,
      summary:
        'Server-side apply (field manager pilothouse) of one object sent as JSON or YAML (application/yaml); dryRun=true changes nothing; conflicts answer 409 with details.conflicts [{field, manager}]',
      params: typeParams,
      query: applyQuery,
      body: manifest,
      response: applyResult,
      errors: [404, 409],
      handler: async (context, { params, query, body }) => {
        const type = await resourceTypeOf(context, params.resource);
        const object = body as KubeObject;
        refuseTopLevelNames(object);
        refuseMaskedValues(object);
        const namespace = requireNamespace(type, body.metadata.namespace ?? (type.namespaced ? applyDefaultNamespace : undefined));
        const options = { dryRun: query.dryRun ?? false, force: query.force ?? false };
        const target = { resource: `${type.kind.toLowerCase()}/${body.metadata.name}`, command: applyLine(type, body.metadata.name, namespace, options) };
        const result = await audited(deps, context, target, () => applyObject(kubeOf(context), { type, object, namespace, ...options }));
        const masked = maskObject(result.object, secretVisibility(context.state.principal));
        context.body = { object: masked, yaml: toYaml(masked), created: result.created, dryRun: options.dryRun };
      },
    }),
    route({
      method: 'GET',
      path: '/api/schemas/:resource',
      permission: 'view',
      cluster: true,
      resourceKind: ':resource',
      summary: "The kind's OpenAPI v3 schema from the API server: {root, schemas} (root names the kind's schema; $refs point into schemas)",
      params: typeParams,
      response: kindSchemaResponse,
      errors: [404],
      handler: async (context, { params }) => {
        context.body = await kindSchema(kubeOf(context), await resourceTypeOf(context, params.resource));
      },
    }),
  ];
}
