import type { AppDeps } from '../../deps.js';
import type { RouteSpec } from '../types.js';
import { healthRoutes } from './health.js';
import { openApiRoutes } from './openapi.js';
import { prometheusRoutes } from './prometheus.js';
import { resourceRoutes } from './resources.js';
import { authRoutes } from './auth.js';
import { adminRoutes } from './admin.js';
import { auditRoutes } from './audit.js';
import { podRoutes } from './pods.js';
import { deploymentRoutes } from './deployments.js';
import { workloadRoutes } from './workloads.js';
import { nodeRoutes } from './nodes.js';
import { metricsRoutes } from './metrics.js';
import { portForwardRoutes } from './portforward.js';
import { helmRoutes } from './helm.js';
import { mcpRoutes } from './mcp.js';
import { chatRoutes } from './chat.js';
import { toolRoutes } from './tool.js';
import { settingsRoutes } from './settings.js';
import { accessRequestRoutes } from './access-requests.js';

/** Every route of the API, each with its declared permission. */
export function allRoutes(deps: AppDeps): RouteSpec[] {
  const routes: RouteSpec[] = [
    ...openApiRoutes(deps, () => routes),
    ...prometheusRoutes(deps),
    ...healthRoutes(deps),
    ...resourceRoutes(deps),
    ...authRoutes(deps),
    ...adminRoutes(deps),
    ...auditRoutes(deps),
    ...podRoutes(deps),
    ...deploymentRoutes(deps),
    ...workloadRoutes(deps),
    ...nodeRoutes(deps),
    ...metricsRoutes(deps),
    ...portForwardRoutes(deps),
    ...helmRoutes(deps),
    ...mcpRoutes(deps),
    ...chatRoutes(deps),
    ...toolRoutes(deps),
    ...settingsRoutes(deps),
    ...accessRequestRoutes(deps),
  ];
  return routes;
}
