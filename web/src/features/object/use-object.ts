import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { useApi } from '../../shared/api-context';
import { objectParams, targetKey, type ResourceTarget } from '../../shared/resource-target';
import type { ObjectShape } from './related';

/** The object as JSON (masked for the caller), shared by the tabs of its page through the query cache. */
export function useObject(target: ResourceTarget): UseQueryResult<ObjectShape> {
  const client = useApi();
  return useQuery({
    queryKey: ['object', targetKey(target)],
    queryFn: ({ signal }) => client.call('GET', '/api/k8s/{resource}/{name}', { ...objectParams(target), signal }) as Promise<ObjectShape>,
  });
}
