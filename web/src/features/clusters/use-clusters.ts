import type { UseQueryResult } from '@tanstack/react-query';
import type { ClusterList } from '@pilothouse/wire/types';
import { useApiQuery } from '../../shared/use-api-query';

/** `GET /api/clusters` every 15 s: the home cluster's name, every cluster's reachability, version and the caller's access there. */
export function useClusters(): UseQueryResult<ClusterList> {
  return useApiQuery('/api/clusters', { refetchInterval: 15_000, keepPrevious: true });
}
