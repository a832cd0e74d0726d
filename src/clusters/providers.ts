import type { Config } from '../config/schema.js';
import type { ClusterChange } from './cluster-set.js';
import { configuredConnection, homeConnection, type ClusterConnection, type HomeConnectionOptions } from './connections.js';

/**
 * Where clusters come from (STYLE habit 18; controller-runtime `pkg/cluster` Provider, kubernetes-mcp-server
 * `pkg/kubernetes/provider_*.go`): the names it knows now, the connection of one, and its changes. The scope
 * factory (src/clusters/scope-factory.ts) turns each into a cluster scope and follows the changes.
 */
export interface ClusterProvider {
  /** The source of its clusters (`home` for the one of the home cluster's name). */
  readonly source: 'config' | 'secret';
  /** The clusters this provider holds now. */
  list(): string[];
  /** One cluster's connection (its kubeconfig), or undefined for a name this provider does not hold. */
  get(name: string): ClusterConnection | undefined;
  /** Calls `listener` for each cluster added, replaced (its connection changed) or removed from now on; returns the unsubscribe function. */
  watch(listener: (change: ClusterChange) => Promise<void>): () => void;
}

/**
 * The `configured` provider: the home cluster (`--kubeconfig`, `cluster.name`) and each of `clusters:`. Its set
 * never changes while the process runs; a connection's kubeconfig is loaded (and checked) at its first `get`.
 */
export function configuredProvider(config: Config, home: HomeConnectionOptions): ClusterProvider {
  const loaders = new Map<string, () => ClusterConnection>([[config.cluster.name, () => homeConnection(config, home)]]);
  for (const cluster of config.clusters) loaders.set(cluster.name, () => configuredConnection(cluster));
  const loaded = new Map<string, ClusterConnection>();
  return {
    source: 'config',
    list: () => [...loaders.keys()],
    get: (name) => {
      const load = loaders.get(name);
      if (!load) return undefined;
      const connection = loaded.get(name) ?? load();
      loaded.set(name, connection);
      return connection;
    },
    watch: () => () => undefined,
  };
}
