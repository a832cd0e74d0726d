import { z } from 'zod';
import { nodeMetrics, podMetrics } from '../../kube/metrics/metrics.js';
import { namespaceQuery, itemsOf } from '../schemas/api-schemas.js';
import { kubeOf } from '../request-state.js';
import { route, type RouteSpec } from '../types.js';
import { visibleItems } from '../visible-items.js';

/** What this module uses of the composed services: none (the caller's cluster client is on the request state). */
export type MetricsRouteDeps = object;

/** Metrics: pod and node usage from metrics.k8s.io (503 `metrics_unavailable` when not served). */
export function metricsRoutes(_deps: MetricsRouteDeps): RouteSpec[] {
  return [
    route({
      method: 'GET',
      path: '/api/metrics/pod',
      permission: 'view',
      cluster: true,
      resourceKind: 'pods',
      summary: 'Pod usage: {items: [{name, namespace, cpu: "<n>m", memory: "<n>Mi"}]} (all namespaces when absent)',
      query: namespaceQuery,
      response: itemsOf(z.object({ name: z.string(), namespace: z.string(), cpu: z.string(), memory: z.string() }).meta({ id: 'PodUsage' })),
      handler: async (context, { query: { namespace } }) => {
        // Across all namespaces the policy leaves out the namespaces the caller may not see.
        context.body = { items: visibleItems(context, await podMetrics(kubeOf(context), namespace)) };
      },
    }),
    route({
      method: 'GET',
      path: '/api/metrics/node',
      permission: 'view',
      cluster: true,
      resourceKind: 'nodes',
      summary: 'Node usage: {items: [{name, cpu, memory, cpuPercent, memoryPercent, allocatableCpu, allocatableMemory}]} against allocatable',
      response: itemsOf(
        z
          .object({
            name: z.string(),
            cpu: z.string(),
            memory: z.string(),
            /** Usage as a percent of allocatable; null when the node states no allocatable. */
            cpuPercent: z.number().nullable(),
            memoryPercent: z.number().nullable(),
            /** The node's allocatable CPU and memory as the API server states them (`4`, `16Gi`), null when absent. */
            allocatableCpu: z.string().nullable(),
            allocatableMemory: z.string().nullable(),
          })
          .meta({ id: 'NodeUsage' }),
      ),
      handler: async (context) => {
        context.body = { items: await nodeMetrics(kubeOf(context)) };
      },
    }),
  ];
}
