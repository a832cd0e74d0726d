import type { UseQueryResult } from '@tanstack/react-query';
import type { AccessRequestItems, ResourcePage } from '@pilothouse/wire/types';
import { useApiQuery } from '../../shared/use-api-query';

/** One cluster's lists for the all-clusters overview, each polled on its own (a slow list never holds the others). */
export interface ClusterFigures {
  nodes: UseQueryResult<ResourcePage>;
  pods: UseQueryResult<ResourcePage>;
  requests: UseQueryResult<AccessRequestItems>;
}

const polled = { refetchInterval: 30_000, keepPrevious: true };

/** Polls the lists behind one cluster's row with `?cluster=NAME`: nodes, pods, access requests. */
export function useClusterFigures(cluster: string): ClusterFigures {
  return {
    nodes: useApiQuery('/api/k8s/{resource}', { path: { resource: 'nodes' }, query: { cluster }, ...polled }),
    pods: useApiQuery('/api/k8s/{resource}', { path: { resource: 'pods' }, query: { cluster }, ...polled }),
    requests: useApiQuery('/api/access-requests', { query: { cluster }, ...polled }),
  };
}
