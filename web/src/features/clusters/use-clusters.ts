import { useCallback } from 'react';
import type { ClusterList } from '@pilothouse/wire/types';
import { useApi } from '../../shared/api-context';
import { usePolling, type Polled } from '../../shared/use-polling';

/** `GET /api/clusters` every 15 s: the home cluster's name, every cluster's reachability, version and the caller's access there. */
export function useClusters(): Polled<ClusterList> {
  const client = useApi();
  const load = useCallback((signal: AbortSignal) => client.json<ClusterList>('GET', '/api/clusters', { signal }), [client]);
  return usePolling('clusters', load, 15_000);
}
