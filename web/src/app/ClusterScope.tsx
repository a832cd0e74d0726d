import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useMemo, useState, type ReactNode } from 'react';
import { ApiProvider, useApi } from '../shared/api-context';
import { ClusterProvider } from '../shared/cluster-context';

/** The app's query cache settings (one cache per cluster, and one before sign-in). */
export function newQueryClient(): QueryClient {
  return new QueryClient({ defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } } });
}

/**
 * Binds the subtree to one cluster (ADR 0035), in one place for every page: the API client's view that names
 * the cluster on every request, the cluster's own query cache (one cluster's cached answer is never shown as
 * another's; switching back finds its cluster's cache), and the cluster name that polling hooks and links use.
 */
export function ClusterScope({ cluster, children }: { cluster: string; children: ReactNode }): ReactNode {
  const client = useApi();
  const bound = useMemo(() => client.forCluster(cluster), [client, cluster]);
  const [caches] = useState(() => new Map<string, QueryClient>());
  let queries = caches.get(cluster);
  if (!queries) {
    queries = newQueryClient();
    caches.set(cluster, queries);
  }
  return (
    <ApiProvider client={bound}>
      <QueryClientProvider client={queries}>
        <ClusterProvider cluster={cluster}>{children}</ClusterProvider>
      </QueryClientProvider>
    </ApiProvider>
  );
}
