import type { RouteSpec } from '../types.js';
import { healthRoutes, type HealthRouteDeps } from './health.js';
import { openApiRoutes, type OpenapiRouteDeps } from './openapi.js';
import { prometheusRoutes, type PrometheusRouteDeps } from './prometheus.js';
import { resourceRoutes, type ResourcesRouteDeps } from './resources.js';
import { resourceTypeRoutes, type ResourceTypesRouteDeps } from './resource-types.js';
import { applyRoutes, type ApplyRouteDeps } from './apply.js';
import { authRoutes, type AuthRouteDeps } from './auth.js';
import { oidcRoutes, type OidcRouteDeps } from './oidc.js';
import { adminRoutes, type AdminRouteDeps } from './admin.js';
import { auditRoutes, type AuditRouteDeps } from './audit.js';
import { podRoutes, type PodsRouteDeps } from './pods.js';
import { deploymentRoutes, type DeploymentsRouteDeps } from './deployments.js';
import { workloadRoutes, type WorkloadsRouteDeps } from './workloads.js';
import { nodeRoutes, type NodesRouteDeps } from './nodes.js';
import { metricsRoutes, type MetricsRouteDeps } from './metrics.js';
import { portForwardRoutes, type PortforwardRouteDeps } from './portforward.js';
import { helmRoutes, type HelmRouteDeps } from './helm.js';
import { helmRepositoryRoutes } from './helm-repositories.js';
import { mcpRoutes, type McpRouteDeps } from './mcp.js';
import { chatRoutes, type ChatRouteDeps } from './chat.js';
import { toolRoutes, type ToolRouteDeps } from './tool.js';
import { settingsRoutes, type SettingsRouteDeps } from './settings.js';
import { accessRequestRoutes, type AccessRequestsRouteDeps } from './access-requests.js';
import { reportRoutes, type ReportsRouteDeps } from './reports.js';
import { clusterRoutes } from './cluster.js';
import { clustersRoutes, type ClustersRouteDeps } from './clusters.js';
import { investigationRoutes, type InvestigationsRouteDeps } from './investigations.js';
import { usageRoutes, type UsageRouteDeps } from './usage.js';
import { promqlRoutes, type PromqlRouteDeps } from './promql.js';
import { historyRoutes, type HistoryRouteDeps } from './history.js';
import { problemRoutes } from './problems.js';

/** What the route table uses of the composed services: the union of every route module's own needs. */
export type RouteDeps = HealthRouteDeps &
  OpenapiRouteDeps &
  PrometheusRouteDeps &
  ResourcesRouteDeps &
  ResourceTypesRouteDeps &
  ApplyRouteDeps &
  AuthRouteDeps &
  OidcRouteDeps &
  AdminRouteDeps &
  AuditRouteDeps &
  PodsRouteDeps &
  DeploymentsRouteDeps &
  WorkloadsRouteDeps &
  NodesRouteDeps &
  MetricsRouteDeps &
  PortforwardRouteDeps &
  HelmRouteDeps &
  McpRouteDeps &
  ChatRouteDeps &
  ToolRouteDeps &
  SettingsRouteDeps &
  AccessRequestsRouteDeps &
  ReportsRouteDeps &
  ClustersRouteDeps &
  InvestigationsRouteDeps &
  UsageRouteDeps &
  PromqlRouteDeps &
  HistoryRouteDeps;

/** Every route of the API, each with its declared permission. */
export function allRoutes(deps: RouteDeps): RouteSpec[] {
  const routes: RouteSpec[] = [
    ...openApiRoutes(deps, () => routes),
    ...prometheusRoutes(deps),
    ...healthRoutes(deps),
    ...resourceTypeRoutes(deps),
    ...resourceRoutes(deps),
    ...applyRoutes(deps),
    ...authRoutes(deps),
    ...oidcRoutes(deps),
    ...adminRoutes(deps),
    ...auditRoutes(deps),
    ...podRoutes(deps),
    ...deploymentRoutes(deps),
    ...workloadRoutes(deps),
    ...nodeRoutes(deps),
    ...metricsRoutes(deps),
    ...portForwardRoutes(deps),
    ...helmRoutes(deps),
    ...helmRepositoryRoutes(deps),
    ...mcpRoutes(deps),
    ...chatRoutes(deps),
    ...toolRoutes(deps),
    ...settingsRoutes(deps),
    ...accessRequestRoutes(deps),
    ...usageRoutes(deps),
    ...reportRoutes(deps),
    ...clusterRoutes(),
    ...clustersRoutes(deps),
    ...investigationRoutes(deps),
    ...promqlRoutes(deps),
    ...historyRoutes(deps),
    ...problemRoutes(),
  ];
  return routes;
}
