import { useCallback, useMemo } from 'react';
import type { ListResponse } from '../../api/list';
import type { AccessRequest, ResourceItem } from '@pilothouse/wire/types';
import { useApi } from '../../shared/api-context';
import { usePolling, type Polled } from '../../shared/use-polling';

/** One cluster's lists for the all-clusters overview, each polled on its own (a slow list never holds the others). */
export interface ClusterFigures {
  nodes: Polled<ListResponse<ResourceItem>>;
  pods: Polled<ListResponse<ResourceItem>>;
  requests: Polled<ListResponse<AccessRequest>>;
}

const everyMs = 30_000;

/** Polls the lists behind one cluster's row with `?cluster=NAME`: nodes, pods, access requests. */
export function useClusterFigures(cluster: string): ClusterFigures {
  const client = useApi();
  const scoped = useMemo(() => client.forCluster(cluster), [client, cluster]);
  const loadNodes = useCallback((signal: AbortSignal) => scoped.json<ListResponse<ResourceItem>>('GET', '/api/k8s/nodes', { signal }), [scoped]);
  const loadPods = useCallback((signal: AbortSignal) => scoped.json<ListResponse<ResourceItem>>('GET', '/api/k8s/pods', { signal }), [scoped]);
  const loadRequests = useCallback((signal: AbortSignal) => scoped.json<ListResponse<AccessRequest>>('GET', '/api/access-requests', { signal }), [scoped]);
  return {
    nodes: usePolling(`all-clusters:${cluster}:nodes`, loadNodes, everyMs),
    pods: usePolling(`all-clusters:${cluster}:pods`, loadPods, everyMs),
    requests: usePolling(`all-clusters:${cluster}:access-requests`, loadRequests, everyMs),
  };
}
