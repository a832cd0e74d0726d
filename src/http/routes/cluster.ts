import { z } from 'zod';
import type { Discovery } from '../../kube/discovery.js';
import { itemsOf } from '../api-schemas.js';
import { clusterOf } from '../request-state.js';
import { route, type RouteSpec } from '../types.js';

/** What this module uses of the composed services (src/app/compose.ts hands it exactly these). */
export interface ClusterRouteDeps {
  discovery: Discovery;
}

const kindView = z.object({
  kind: z.string(),
  plural: z.string(),
  singular: z.string(),
  group: z.string(),
  version: z.string(),
  namespaced: z.boolean(),
  shortNames: z.array(z.string()),
});
const versionView = z.object({ gitVersion: z.string(), major: z.string(), minor: z.string(), platform: z.string() }).catchall(z.unknown());

/** The cluster itself: the kinds it serves (for the command palette) and its version (for the overview). */
export function clusterRoutes(deps: ClusterRouteDeps): RouteSpec[] {
  return [
    route({
      method: 'GET',
      path: '/api/k8s',
      permission: 'view',
      summary: 'Resource kinds the cluster serves (discovery): {items: [{kind, plural, singular, group, version, namespaced, shortNames}]}',
      response: itemsOf(kindView),
      handler: async (context) => {
        const types = await deps.discovery.all();
        const listable = types.filter((type) => type.verbs.length === 0 || type.verbs.includes('list'));
        context.body = {
          items: listable.map(({ kind, plural, singular, group, version, namespaced, shortNames }) => ({
            kind,
            plural,
            singular,
            group,
            version,
            namespaced,
            shortNames,
          })),
        };
      },
    }),
    route({
      method: 'GET',
      path: '/api/cluster/version',
      permission: 'view',
      summary: "The API server's version (GET /version): {gitVersion, major, minor, platform}",
      response: versionView,
      handler: async (context) => {
        context.body = await clusterOf(context).rest.json<z.infer<typeof versionView>>('GET', '/version');
      },
    }),
  ];
}
