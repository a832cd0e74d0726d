import { createContext, useContext, type ReactNode } from 'react';

const ClusterContext = createContext('');

/** Names the cluster the subtree shows ('' = the home cluster); the app sets it from the URL. */
export function ClusterProvider({ cluster, children }: { cluster: string; children: ReactNode }): ReactNode {
  return <ClusterContext.Provider value={cluster}>{children}</ClusterContext.Provider>;
}

/** The cluster the pages show ('' = the home cluster): what `?cluster=` of the URL says. */
export function useCluster(): string {
  return useContext(ClusterContext);
}
