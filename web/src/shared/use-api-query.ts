import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { pathOf, type CallInit, type InitArgs, type LooseInit, type PathOf, type ResponseBody } from '@pilothouse/wire/calls';
import { readJson, withQuery } from '@pilothouse/wire/wire-client';
import { useApi } from './api-context';
import { useCluster } from './cluster-context';

/** How the query behaves besides what it asks (the path parameters and the query of the GET). */
interface QueryBehaviour {
  /** Refetch every so many ms in the background (what the API cannot push); the last answer stays on screen meanwhile. */
  refetchInterval?: number;
  enabled?: boolean;
  /** Keep showing the last answer of the same cluster while the answer to changed inputs loads (never another cluster's). */
  keepPrevious?: boolean;
}

/** What `useApiQuery(path, …)` takes: the GET's `path` parameters and `query`, and how to refetch. */
export type ApiQueryOptions<P extends PathOf<'GET'>> = Omit<CallInit<'GET', P>, 'signal'> & QueryBehaviour;

/**
 * `GET path` through the app's client, cached by TanStack Query under the filled-in path with its query, and the
 * cluster (each cluster also has its own cache: app/ClusterScope.tsx). The path template picks the answer's type from the contract:
 * `useApiQuery('/api/k8s/{resource}', { path: { resource: 'pods' } })`.
 */
export function useApiQuery<P extends PathOf<'GET'>>(path: P, ...args: InitArgs<ApiQueryOptions<P>>): UseQueryResult<ResponseBody<'GET', P>> {
  const client = useApi();
  const cluster = useCluster();
  const { refetchInterval, enabled, keepPrevious, ...init } = (args[0] ?? {}) as LooseInit & QueryBehaviour;
  const url = pathOf(path, init.path);
  return useQuery({
    // The cluster is part of the key: a component that outlives a cluster switch (the header, the pilot panel) keeps
    // its first cache (TanStack Query binds an observer to one client), so one cluster's answer is never another's.
    queryKey: [withQuery(url, init.query), cluster],
    queryFn: async ({ signal }) => (await readJson(await client.request('GET', url, { query: init.query, signal }))) as ResponseBody<'GET', P>,
    refetchInterval,
    // The previous answer only while it is about the same cluster (the key's second element).
    placeholderData: keepPrevious ? (previous, query) => (query?.queryKey[1] === cluster ? previous : undefined) : undefined,
    enabled: enabled ?? true,
  });
}
