import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { KubeConfig } from '@kubernetes/client-node/dist/config.js';
import type { Logger } from 'pino';
import type { Clock } from '../clock.js';
import type { ClusterConfig, Config } from '../config/schema.js';
import type { ClusterScope } from '../http/cluster-scope.js';
import type { Metrics } from '../http/metrics.js';
import { HelmInvocations } from '../helm/helm-invocations.js';
import { CacheManager } from '../kube/cache-manager.js';
import { KubeClients, loadKubeConfig, type KubeConnectionOptions } from '../kube/clients.js';
import { AppError } from '../errors.js';
import { ClusterHealth } from '../kube/cluster-health.js';
import { loadClusterKubeconfigFile } from '../kube/cluster-kubeconfig.js';
import { ClusterSet, type ClusterSource } from '../kube/cluster-set.js';
import { Discovery } from '../kube/discovery.js';
import { ListView } from '../kube/list-view/list-view.js';
import type { GrantCheck } from '../rbac/authorize.js';
import { rulesForCluster } from '../rbac/cluster-rules.js';
import { RoleIdentityResolver } from '../rbac/identities.js';
import { PolicyEngine } from '../rbac/policy-engine.js';
import type { Principal } from '../rbac/principal.js';
import { SharedDiscoveryCache } from '../tools/builtin/kubectl-discovery-cache.js';
import { PolicyProxyGateway } from '../tools/policy-proxy/gateway.js';
import type { PrometheusConfig } from '../config/prometheus-schema.js';
import { PrometheusSource } from '../prometheus/prometheus-source.js';
import { UsageMemory } from '../prometheus/usage-memory.js';
import { readUsage } from '../kube/usage-sample.js';
import { findBinary } from '../tools/binaries.js';
import { ProblemsEngine } from '../problems/engine.js';
import { allAnalyzers } from '../problems/analyzers/index.js';
import { countBySeverity } from '../problems/finding.js';
import { compareFindings, matchesFilter } from '../problems/finding-filter.js';
import { visibleFindings } from '../problems/visible-findings.js';
import type { ProblemsReader } from '../tools/builtin/problems-tool.js';
import type { ToolClusterGateway } from '../tools/types.js';
import type { AgentLoopDeps } from '../agent/agent-loop.js';
import { managedObjects } from '../kube/managed-objects.js';
import { kubectlTargets } from '../tools/kubectl-targets.js';

/** What every cluster's scope is built from (part of the composition root). */
export interface ClusterScopeInputs {
  config: Config;
  logger: Logger;
  dataDir: string;
  clock: Clock;
  metrics: Metrics;
  kubectlPath: string;
  /** The grants of a cluster (approved AccessRequests naming it). */
  grantCheckFor(cluster: string): GrantCheck;
}

/** One cluster's connection: a kubeconfig (a file for kubectl and helm) and where it came from. */
export interface ClusterConnection {
  name: string;
  source: ClusterSource;
  kubeConfig: KubeConfig;
  connection: KubeConnectionOptions;
  mappings?: Partial<Record<Principal['role'], string>>;
  /** Removed when the cluster is (a Secret's kubeconfig written for kubectl and helm). */
  ownedFile?: string;
  /** The cluster's own `prometheus:` (absent: detection with the home cluster's other settings). */
  prometheus?: PrometheusConfig;
}

/** A cluster's Prometheus settings: its own, or the top-level ones without their url or service (found by detection). */
function prometheusConfigOf(config: Config, cluster: ClusterConnection): PrometheusConfig {
  if (cluster.prometheus) return cluster.prometheus;
  if (cluster.source === 'home') return config.prometheus;
  return { ...config.prometheus, url: undefined, service: undefined, auth: undefined };
}

/** Builds one cluster's scope: nothing connects until a request, a watch or the health probe needs it. */
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
  const toolCluster = new PolicyProxyGateway({
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
    toolCluster,
    helm,
    health,
    close: async () => {
      health.stop();
      usageMemory.stop();
      problems.close();
      caches.close();
      toolCluster.close();
      metrics.clusterUp.remove({ cluster: name });
      await kube.close();
      if (cluster.ownedFile) rmSync(cluster.ownedFile, { force: true });
    },
  };
}

/** The home cluster's connection: `--kubeconfig`/`--context` (or config), else in-cluster/default loading. */
export function homeConnection(config: Config, options: { kubeconfigPath?: string; context?: string }): ClusterConnection {
  const kubeconfigPath = options.kubeconfigPath ?? config.kubernetes.kubeconfig;
  const context = options.context ?? config.kubernetes.context;
  return { name: config.cluster.name, source: 'home', kubeConfig: loadKubeConfig({ kubeconfigPath, context }), connection: { kubeconfigPath, context } };
}

/** A cluster of `clusters:` in config (its kubeconfig file, as kubectl reads it). */
/** A refused kubeconfig names its cluster (`clusters[].name`) at start. */
function withClusterName<T>(name: string, load: () => T): T {
  try {
    return load();
  } catch (error) {
    throw new AppError('VALIDATION_ERROR', `clusters: "${name}": ${(error as Error).message}`, { cluster: name });
  }
}

export function configuredConnection(cluster: ClusterConfig): ClusterConnection {
  // The same check as a Secret's (the file, its context, cluster and user), file references and plugins allowed.
  const { kubeConfig, context } = withClusterName(cluster.name, () => loadClusterKubeconfigFile(cluster.kubeconfig, cluster.context));
  const connection = { kubeconfigPath: cluster.kubeconfig, context };
  return { name: cluster.name, source: 'config', kubeConfig, connection, mappings: cluster.impersonation.mappings, prometheus: cluster.prometheus };
}

/**
 * A cluster registered by a Secret: its (validated, inline-only) kubeconfig is written, readable by this
 * process's user only, under `<dataDir>/clusters/` for kubectl and helm, and removed with the cluster.
 */
export function secretConnection(dataDir: string, name: string, kubeConfig: KubeConfig): ClusterConnection {
  const folder = join(dataDir, 'clusters');
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  const file = join(folder, `${name}.kubeconfig`);
  writeFileSync(file, kubeConfig.exportConfig(), { mode: 0o600 });
  return { name, source: 'secret', kubeConfig, connection: { kubeconfigPath: file, context: kubeConfig.getCurrentContext() }, ownedFile: file };
}

/** The home cluster and the ones of `clusters:`; Secrets add more once the service runs (src/app/service.ts). */
export function composeClusters(inputs: ClusterScopeInputs, home: ClusterConnection): ClusterSet<ClusterScope> {
  const clusters = new ClusterSet<ClusterScope>(home.name);
  void clusters.put(composeClusterScope(inputs, home));
  for (const configured of inputs.config.clusters) void clusters.put(composeClusterScope(inputs, configuredConnection(configured)));
  return clusters;
}

/** The AI's gateway: each tool call opens its policy proxy on the cluster it names (absent: home); each closes with its cluster. */
export function clusterToolGateway(clusters: ClusterSet<ClusterScope>): ToolClusterGateway {
  return { open: (request) => clusters.resolve(request.clusterName).toolCluster.open(request) };
}

/** Every cluster's cache sizes (the `pilothouse_cache_objects` gauge). */
export function cacheSizes(clusters: ClusterSet<ClusterScope>): { resource: string; size: number; cluster: string }[] {
  return clusters.list().flatMap((scope) => scope.caches.sizes().map((entry) => ({ ...entry, cluster: scope.name })));
}

/**
 * Every cluster's findings by analyzer and severity (the `pilothouse_problems` gauge). A scrape starts the engines
 * that have not started (Prometheus keeps them running); their counts appear once their first analysis is done.
 */
export function problemCounts(clusters: ClusterSet<ClusterScope>): { cluster: string; analyzer: string; severity: string; count: number }[] {
  return clusters.list().flatMap((scope) => {
    void scope.problems.start();
    const counts = new Map<string, number>();
    for (const finding of scope.problems.findings()) {
      if (finding.ignored) continue;
      const key = `${finding.analyzer}\u0000${finding.severity}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    return [...counts].map(([key, count]) => {
      const [analyzer = '', severity = ''] = key.split('\u0000');
      return { cluster: scope.name, analyzer, severity, count };
    });
  });
}

/** The GitOps managers of the objects a kubectl call names, on the cluster it goes to, read as the caller (approval cards). */
export function managedObjectsReader(clusters: ClusterSet<ClusterScope>): NonNullable<AgentLoopDeps['managedObjects']> {
  return async (request) => {
    const targets = kubectlTargets(request.command);
    if (targets.length === 0) return [];
    const scope = clusters.resolve(request.clusterName);
    const lookup = { resolve: (resource: string) => scope.discovery.resolve(resource), rest: scope.identities.clientFor(request.principal).rest };
    return managedObjects(lookup, targets);
  };
}

/** The AI's problems tool's reader: the cluster the call names (absent: home; unknown: NOT_FOUND), as the caller may see it. */
export function problemsReader(clusters: ClusterSet<ClusterScope>): ProblemsReader {
  return {
    read: async (request) => {
      const scope = clusters.resolve(request.clusterName);
      await scope.problems.start();
      const viewer = { principal: request.principal, client: scope.identities.clientFor(request.principal) };
      const seen = await visibleFindings({ policy: scope.policy, access: scope.caches.access }, viewer, scope.problems.findings());
      const filter = { namespace: request.namespace, kind: request.kind, name: request.name };
      const items = seen.filter((finding) => matchesFilter(finding, filter)).sort(compareFindings);
      return { items, total: items.length, counts: countBySeverity(items) };
    },
  };
}
