import { z } from 'zod';
import { nodeMetrics, podMetrics } from '../../kube/metrics.js';
import { namespaceSchema, parseWith } from '../validate.js';
import { route, type RouteSpec } from '../types.js';
import { visibleItems } from '../visible-items.js';
import type { IdentityResolver } from '../../rbac/identities.js';

/** What this module uses of the composed services (src/app/compose.ts hands it exactly these). */
export interface MetricsRouteDeps {
  identities: IdentityResolver;
}

/** Metrics: pod and node usage from metrics.k8s.io (503 `metrics_unavailable` when not served). */
export function metricsRoutes(deps: MetricsRouteDeps): RouteSpec[] {
  return [
    route({
      method: 'GET',
      path: '/api/metrics/pod',
      permission: 'view',
      resourceKind: 'pods',
      summary: 'Pod usage: {items: [{name, namespace, cpu: "<n>m", memory: "<n>Mi"}]} (all namespaces when absent)',
      handler: async (context) => {
        const { namespace } = parseWith(z.object({ namespace: namespaceSchema.optional() }), context.query, 'query');
        // Across all namespaces the policy leaves out the namespaces the caller may not see.
        context.body = { items: visibleItems(context, await podMetrics(deps.identities.clientFor(context.state.principal), namespace)) };
      },
    }),
    route({
      method: 'GET',
      path: '/api/metrics/node',
      permission: 'view',
      resourceKind: 'nodes',
      summary: 'Node usage: {items: [{name, cpu, memory, cpuPercent, memoryPercent}]} against allocatable',
      handler: async (context) => {
        context.body = { items: await nodeMetrics(deps.identities.clientFor(context.state.principal)) };
      },
    }),
  ];
}
