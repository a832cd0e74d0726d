import { z } from 'zod';
import { replaceObject, requireNamespace } from '../../kube/resources.js';
import { validation } from '../../errors.js';
import { namespaceSchema, objectNameSchema } from '../validate.js';
import { route, type RouteSpec } from '../types.js';
import { anyObject } from '../api-schemas.js';
import { clusterOf } from '../request-state.js';
import { audited, type AuditContextDeps } from '../audit-context.js';
import type { Discovery } from '../../kube/discovery.js';

/** What this module uses of the composed services (src/app/compose.ts hands it exactly these). */
export interface ResourceUpdatesRouteDeps extends AuditContextDeps {
  discovery: Discovery;
}

const params = z.object({
  resource: z
    .string()
    .max(253)
    .regex(/^[a-zA-Z][a-zA-Z0-9.-]*$/, 'must be a resource type name such as pods or deployments.apps'),
  name: objectNameSchema,
});
const body = z.object({
  namespace: namespaceSchema.optional(),
  dryRun: z.boolean().default(false).describe('true: the API server validates and admits the change without storing it (server-side dry run)'),
  object: anyObject.describe('The whole edited object (as GET /api/k8s/{resource}/{name} returned it, resourceVersion kept)'),
});
const replaced = z.object({ kind: z.string(), name: z.string(), namespace: z.string().optional(), apiVersion: z.string(), dryRun: z.boolean() });

/** The edited copy must still be the object it replaces (same name, same namespace when it names one). */
function requireSameObject(body: Record<string, unknown>, name: string, namespace: string | undefined): void {
  const metadata = (body.metadata ?? {}) as { name?: unknown; namespace?: unknown };
  const otherNamespace = namespace !== undefined && metadata.namespace !== undefined && metadata.namespace !== namespace;
  if (metadata.name !== name || otherNamespace)
    throw validation('the edited object must keep its name and namespace', { fields: { metadata: 'name or namespace changed' } });
}

/** Replace one object with an edited copy (the terminal UI's `e`: $EDITOR on the YAML, dry run first). */
export function resourceUpdateRoutes(deps: ResourceUpdatesRouteDeps): RouteSpec[] {
  return [
    route({
      method: 'PUT',
      path: '/api/k8s/:resource/:name',
      permission: 'execute_write',
      resourceKind: ':resource',
      summary:
        'Replace a resource with an edited copy {namespace?, dryRun?, object} (kubectl replace; dryRun validates on the API server without storing): its reference',
      params,
      body,
      response: replaced,
      errors: [404],
      handler: async (context, input) => {
        const type = await deps.discovery.resolve(input.params.resource);
        const namespace = requireNamespace(type, input.body.namespace);
        requireSameObject(input.body.object, input.params.name, type.namespaced ? namespace : undefined);
        const dryRun = input.body.dryRun;
        const resource = type.group ? `${type.plural}.${type.group}` : type.plural;
        const line = `kubectl replace ${resource}/${input.params.name}${namespace ? ` -n ${namespace}` : ''} -f -${dryRun ? ' --dry-run=server' : ''}`;
        const edited = input.body.object;
        const object = { ...edited, metadata: { ...(edited.metadata as object), ...(namespace ? { namespace } : {}) } };
        const reference = await audited(deps, context, { resource: `${type.kind.toLowerCase()}/${input.params.name}`, command: line }, () =>
          replaceObject(clusterOf(context), type, object, { namespace, dryRun }),
        );
        context.body = { ...reference, dryRun };
      },
    }),
  ];
}
