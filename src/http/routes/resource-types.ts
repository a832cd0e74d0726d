import { z } from 'zod';
import { auditedRead, type AuditReadsDeps } from '../audit-reads.js';
import { itemsOf } from '../schemas/api-schemas.js';
import { route, type RouteSpec } from '../types.js';
import { scopeOf } from '../request-state.js';

/** What this module uses of the composed services (src/app/compose.ts hands it exactly these). */
export type ResourceTypesRouteDeps = AuditReadsDeps;

const resourceTypeItem = z
  .object({
    name: z.string().describe('The name /api/k8s/{resource} takes (plural, or plural.group outside the core group)'),
    kind: z.string(),
    group: z.string(),
    version: z.string(),
    plural: z.string(),
    singular: z.string(),
    shortNames: z.array(z.string()),
    namespaced: z.boolean(),
    verbs: z.array(z.string()),
  })
  .meta({ id: 'ResourceTypeItem' });

/** Discovery: the kinds the cluster serves with their short names (the terminal UI's `:` completion, kubectl api-resources). */
export function resourceTypeRoutes(deps: ResourceTypesRouteDeps): RouteSpec[] {
  return [
    route({
      method: 'GET',
      path: '/api/k8s',
      permission: 'view',
      cluster: true,
      summary: 'Resource kinds the cluster serves (discovery): {items: [{name, kind, group, version, plural, singular, shortNames, namespaced, verbs}]}',
      response: itemsOf(resourceTypeItem),
      handler: async (context) => {
        const read = { resource: 'apiresources', command: 'kubectl api-resources', sensitive: false };
        const types = await auditedRead(deps, context, read, () => scopeOf(context).discovery.all());
        context.body = {
          items: types.map((type) => ({
            name: type.group ? `${type.plural}.${type.group}` : type.plural,
            kind: type.kind,
            group: type.group,
            version: type.version,
            plural: type.plural,
            singular: type.singular,
            shortNames: type.shortNames,
            namespaced: type.namespaced,
            verbs: type.verbs,
          })),
        };
      },
    }),
  ];
}
