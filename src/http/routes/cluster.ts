import { z } from 'zod';
import { kubeOf } from '../request-state.js';
import { route, type RouteSpec } from '../types.js';

const versionView = z
  .object({ gitVersion: z.string(), major: z.string(), minor: z.string(), platform: z.string() })
  .catchall(z.unknown())
  .meta({ id: 'ClusterVersion' });

/** The cluster itself: its version (for the overview). The kinds it serves are GET /api/k8s (resource-types.ts). */
export function clusterRoutes(): RouteSpec[] {
  return [
    route({
      method: 'GET',
      path: '/api/cluster/version',
      permission: 'view',
      cluster: true,
      summary: "The API server's version (GET /version): {gitVersion, major, minor, platform}",
      response: versionView,
      handler: async (context) => {
        context.body = await kubeOf(context).rest.json<z.infer<typeof versionView>>('GET', '/version');
      },
    }),
  ];
}
