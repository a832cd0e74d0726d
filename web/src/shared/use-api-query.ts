import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { type Query, withQuery } from '@pilothouse/wire/wire-client';
import { useApi } from './api-context';

interface ApiQueryOptions {
  query?: Query;
  /** Refetch every so many ms (metrics, which the API cannot push). */
  refetchInterval?: number;
  enabled?: boolean;
}

/** `GET path` through the app's client, cached by TanStack Query under the path and its query. */
export function useApiQuery<T>(path: string, options: ApiQueryOptions = {}): UseQueryResult<T> {
  const client = useApi();
  return useQuery({
    queryKey: [withQuery(path, options.query)],
    queryFn: ({ signal }) => client.json<T>('GET', path, { query: options.query, signal }),
    refetchInterval: options.refetchInterval,
    enabled: options.enabled ?? true,
  });
}
