import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { Clock } from '../clock.js';
import type { Config } from '../config/schema.js';
import { HelmInvocations } from '../helm/helm-invocations.js';
import { CacheManager } from '../kube/cache/cache-manager.js';
import { KubeClients } from '../kube/clients.js';
import { Discovery } from '../kube/discovery.js';
import { ListView } from '../kube/list-view/list-view.js';
import { readUsage } from '../kube/metrics/usage-sample.js';
import type { GrantCheck } from '../rbac/authorize.js';
import { rulesForCluster } from '../rbac/cluster-rules.js';
import { PolicyEngine } from '../rbac/policy-engine.js';
import { SharedDiscoveryCache } from '../tools/builtin/kubectl-discovery-cache.js';
import { PolicyProxyGateway } from '../tools/policy-proxy/gateway.js';
import { findBinary } from '../tools/binaries.js';
import { PrometheusSource } from '../prometheus/prometheus-source.js';
import { UsageMemory } from '../prometheus/usage-memory.js';
import { ProblemsEngine } from '../problems/engine.js';
import { allAnalyzers } from '../problems/analyzers/index.js';
import { ClusterHealth } from './cluster-health.js';
import { ClusterSet, type ClusterChange } from './cluster-set.js';
import { prometheusConfigOf, type ClusterConnection } from './connections.js';
import { RoleIdentityResolver } from './identities.js';
import type { ClusterProvider } from './providers.js';
import type { ClusterScope } from './scope.js';

/** What a scope reports to the service's metrics (src/http/metrics.ts has these; `--mcp` reports nothing). */
export interface ScopeMetrics {
  clusterCallObserver(cluster: string): ((verb: string, seconds: number) => void) | undefined;
  policyDenials: { inc(labels: { path: string }): void };
  clusterUp: { set(labels: { cluster: string }, value: number): void; remove(labels: { cluster: string }): void };
}

/** The metrics of a process that exposes none (`--mcp`). */
export const unreportedScopeMetrics: ScopeMetrics = {
  clusterCallObserver: () => undefined,
  policyDenials: { inc: () => undefined },
  clusterUp: { set: () => undefined, remove: () => undefined },
};

/** What every cluster's scope is built from (part of the composition root). */
export interface ClusterScopeInputs {
  config: Config;
  logger: Logger;
  dataDir: string;
  clock: Clock;
  metrics: ScopeMetrics;
  kubectlPath: string;
  /** The grants of a cluster (approved AccessRequests naming it); `--mcp` has none. */
  grantCheckFor(cluster: string): GrantCheck;
}

/** Builds one cluster's scope: nothing connects until a request, a watch, the health probe or {@link ClusterScope.start} needs it. */
export function composeClusterScope(inputs: ClusterScopeInputs, cluster: ClusterConnection): ClusterScope {
  const { config, logger, clock, metrics } = inputs;
  const name = cluster.name;
  const kube = new KubeClients(cluster.kubeConfig, cluster.connection, metrics.clusterCallObserver(name), { answerTimeoutMs: config.cluster.timeout });
  const own = kube.forIdentity(undefined);
  const caches = new CacheManager(logger.child({ cluster: name }), () => kube.forIdentity(undefined), { clock });
  const discovery = new Discovery(own.rest);
  const identities = new RoleIdentityResolver(config, kube, inputs.kubectlPath, cluster.mappings);
  const grantCheck = inputs.grantCheckFor(name);
  const policy = new PolicyEngine({
    definitions: rulesForCluster(config.authorization.roles, name),
    ownNamespace: config.kubernetes.namespace,
    resourceTypes: () => discovery.all(),
    grantCheck,
  });
  // Tools hold no credentials: each kubectl/bash call gets its own policy proxy on this cluster (src/tools/policy-proxy).
  const proxyGateway = new PolicyProxyGateway({
    kubeConfigFor: (identity) => kube.forIdentity(identity).kubeConfig,
    identityOf: (principal) => identities.clusterIdentityOf(principal),
    policy,
    onDenied: () => metrics.policyDenials.inc({ path: 'proxy' }),
    // kubectl's warm discovery of this cluster only, closed with it (never linked to another cluster's calls).
    discovery: new SharedDiscoveryCache({ kubectlPath: inputs.kubectlPath }),
  });
  const helm = new HelmInvocations(identities, {
    helmPath: () => findBinary('helm', config.tools.helm),
    homeDirectory: join(inputs.dataDir, 'helm'),
    timeoutMs: Math.max(config.tools.timeout, 120_000),
  });
  const health = new ClusterHealth(own.rest, kube.apiServerUrl(), {
    timeoutMs: config.cluster.timeout,
    now: clock,
    observe: (up) => metrics.clusterUp.set({ cluster: name }, up ? 1 : 0),
  });
  const prometheus = new PrometheusSource({
    config: prometheusConfigOf(config, cluster),
    ownNamespace: config.kubernetes.namespace,
    rest: () => kube.forIdentity(undefined).rest,
    clock,
  });
  const { fallback } = prometheus.config;
  const usageMemory = new UsageMemory({
    read: () => readUsage(kube.forIdentity(undefined)),
    windowMs: fallback.window,
    intervalMs: fallback.interval,
    clock,
    logger: logger.child({ cluster: name }),
  });
  const problems = new ProblemsEngine({
    cluster: name,
    rest: () => kube.forIdentity(undefined).rest,
    config: config.problems,
    analyzers: allAnalyzers,
    served: () => discovery.all(),
    clock,
    logger: logger.child({ cluster: name }),
  });
  return {
    name,
    source: cluster.source,
    prometheus,
    usageMemory,
    problems,
    kube,
    discovery,
    caches,
    lists: new ListView(caches, clock),
    identities,
    policy,
    grantCheck,
    proxyGateway,
    helm,
    health,
    start: () => {
      health.start();
      void discovery.all().catch(() => undefined);
      problems.start().catch((error: unknown) => logger.warn({ cluster: name, error: (error as Error).message }, 'problems engine did not start'));
    },
    close: async () => {
      health.stop();
      usageMemory.stop();
      problems.close();
      caches.close();
      proxyGateway.close();
      metrics.clusterUp.remove({ cluster: name });
      await kube.close();
      if (cluster.ownedFile) rmSync(cluster.ownedFile, { force: true });
    },
  };
}

/** The parts of a scope that are built with it (a lazy scope builds them all at the first read of any). */
const builtParts = [
  'kube',
  'discovery',
  'caches',
  'lists',
  'identities',
  'policy',
  'grantCheck',
  'proxyGateway',
  'helm',
  'health',
  'prometheus',
  'usageMemory',
  'problems',
] as const satisfies readonly (keyof ClusterScope)[];
type Unlisted = Exclude<keyof ClusterScope, (typeof builtParts)[number] | 'name' | 'source' | 'start' | 'close'>;
// Every part of a scope is listed above: a new one fails compilation here until it is.
const everyPartListed: [Unlisted] extends [never] ? true : never = true;

/**
 * A scope built at the first read of any of its parts (`--mcp`: a cluster no call names is never contacted, and
 * its problems engine starts at its first reader); `start` does nothing, `close` closes what was built.
 */
function lazyScope(name: string, source: ClusterScope['source'], build: () => ClusterScope): ClusterScope {
  let built: ClusterScope | undefined;
  const scope = { name, source, start: () => undefined, close: async () => built?.close() } as ClusterScope;
  for (const part of builtParts) Object.defineProperty(scope, part, { enumerable: true, get: () => (built ??= build())[part] });
  return scope;
}

/** How the factory builds scopes: `eager` (the service: built and started with the process) or `lazy` (`--mcp`). */
export type ScopeMode = 'eager' | 'lazy';

/** The clusters of every provider as scopes, following their changes until `stop`. */
export interface ClusterScopeSet {
  clusters: ClusterSet<ClusterScope>;
  /** Adds a provider's clusters and follows its changes (a provider that needs the home cluster comes after it). */
  engage(provider: ClusterProvider): void;
  /** Stops following the providers (the scopes stay: `clusters.closeAll()` closes them). */
  stop(): void;
}

/**
 * The one scope factory (STYLE habit 18): every cluster each provider holds becomes a scope of one set, added,
 * rebuilt and removed as the provider says. A provider's cluster of the home cluster's name is the home scope.
 */
export function composeClusterScopes(inputs: ClusterScopeInputs, providers: readonly ClusterProvider[], mode: ScopeMode): ClusterScopeSet {
  const clusters = new ClusterSet<ClusterScope>(inputs.config.cluster.name);
  const build = (provider: ClusterProvider, name: string): ClusterScope => {
    const connect = (): ClusterConnection => {
      const connection = provider.get(name);
      if (!connection) throw new Error(`cluster "${name}" is no longer provided`);
      return connection;
    };
    if (mode === 'eager') return composeClusterScope(inputs, connect());
    return lazyScope(name, name === clusters.homeName ? 'home' : provider.source, () => composeClusterScope(inputs, connect()));
  };
  const unsubscribe: (() => void)[] = [];
  const engage = (provider: ClusterProvider): void => {
    for (const name of provider.list()) void clusters.put(build(provider, name));
    unsubscribe.push(
      provider.watch((change: ClusterChange) => (change.type === 'removed' ? clusters.remove(change.name) : clusters.put(build(provider, change.name)))),
    );
  };
  providers.forEach(engage);
  void everyPartListed;
  return { clusters, engage, stop: () => unsubscribe.splice(0).forEach((stop) => stop()) };
}
