import type { Logger } from 'pino';
import type { RestClient } from '../kube/rest-client.js';
import type { ClusterChange } from './cluster-set.js';
import { secretConnection, type ClusterConnection } from './connections.js';
import type { ClusterProvider } from './providers.js';
import { ClusterSecretWatch, type ClusterSecretRefusal, type ClusterSecretSource, type ClusterSecretTarget } from './secret-watch.js';

/** The `secrets` provider: a {@link ClusterProvider} fed by the watch of labelled Secrets, started and stopped with the service. */
export interface SecretsProvider extends ClusterProvider {
  /** The labelled Secrets that register no cluster now, and why (GET /api/clusters, to admins). */
  refusals(): readonly ClusterSecretRefusal[];
  /** Resolves once the first list of Secrets has been reported (their clusters are in the set). */
  readonly synced: Promise<void>;
  start(): void;
  stop(): Promise<void>;
}

/**
 * The registrations of cluster Secrets as a provider's state: the watch reports to `target`, the provider
 * answers from what it holds and tells its watchers. Names in `reserved` (the home cluster's and those of
 * `clusters:`) are never taken: the configuration wins.
 */
export function secretRegistrations(
  reservedNames: Iterable<string>,
  connect: (name: string, source: ClusterSecretSource) => ClusterConnection,
): { target: ClusterSecretTarget; provider: ClusterProvider } {
  const reserved = new Set(reservedNames);
  const held = new Map<string, ClusterConnection>();
  const listeners = new Set<(change: ClusterChange) => Promise<void>>();
  const tell = async (change: ClusterChange): Promise<void> => {
    await Promise.all([...listeners].map((listener) => listener(change)));
  };
  const target: ClusterSecretTarget = {
    reserved: (name) => reserved.has(name),
    put: async (name, source) => {
      const type = held.has(name) ? 'replaced' : 'added';
      held.set(name, connect(name, source));
      await tell({ type, name });
    },
    remove: async (name) => {
      if (!held.delete(name)) return;
      await tell({ type: 'removed', name });
    },
  };
  const provider: ClusterProvider = {
    source: 'secret',
    list: () => [...held.keys()],
    get: (name) => held.get(name),
    watch: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  return { target, provider };
}

export interface SecretsProviderOptions {
  /** The service's own client on the home cluster (the Secrets live there). */
  rest: RestClient;
  /** `kubernetes.namespace`: where the labelled Secrets are read. */
  namespace: string;
  /** The names Secrets may not take (the home cluster's and those of `clusters:`). */
  reserved: Iterable<string>;
  /** Each Secret's kubeconfig is written under `<dataDir>/clusters/` for kubectl and helm. */
  dataDir: string;
  logger: Logger;
}

/**
 * Clusters of labelled Secrets (ADR 0035) in `kubernetes.namespace` of the home cluster, read with the service's own
 * client: added, replaced when their data changes, removed with them. Started by the service once it runs.
 */
export function secretsProvider(options: SecretsProviderOptions): SecretsProvider {
  const { target, provider } = secretRegistrations(options.reserved, (name, source) => secretConnection(options.dataDir, name, source.kubeConfig));
  const watch = new ClusterSecretWatch(options.rest, options.namespace, target, options.logger);
  return {
    ...provider,
    synced: watch.synced,
    refusals: () => watch.refusals(),
    start: () => watch.start(),
    stop: () => watch.stop(),
  };
}
