import { countBySeverity } from '../problems/finding.js';
import { compareFindings, matchesFilter } from '../problems/finding-filter.js';
import { visibleFindings } from '../problems/visible-findings.js';
import type { PromqlCluster } from '../prometheus/promql-runner.js';
import type { ProblemsReader } from '../tools/builtin/problems-tool.js';
import type { ToolClusterGateway } from '../tools/types.js';
import type { ClusterScopes } from './scope.js';
import type { AgentLoopDeps } from '../agent/agent-loop.js';
import { managedObjects } from '../kube/managed-objects.js';
import { kubectlTargets } from '../tools/kubectl-targets.js';

/** The AI's proxy gateway: each tool call opens its policy proxy on the cluster it names (absent: home); each closes with its cluster. */
export function clusterProxyGateway(clusters: ClusterScopes): ToolClusterGateway {
  return { open: (request) => clusters.resolve(request.clusterName).proxyGateway.open(request) };
}

/**
 * Every API server Pilothouse serves, now (`https://host:port` of the home cluster, `clusters:` and cluster
 * Secrets): outbound URLs set through the API may name none of them (src/net/outbound-policies.ts). A lazy
 * scope (`--mcp`) is built by this read: its kubeconfig is loaded, nothing connects.
 */
export function apiServerUrls(clusters: ClusterScopes): () => string[] {
  return () => clusters.list().flatMap((scope) => scope.kube.apiServerUrl() ?? []);
}

/** Every cluster's cache sizes (the `pilothouse_cache_objects` gauge). */
export function cacheSizes(clusters: ClusterScopes): { resource: string; size: number; cluster: string }[] {
  return clusters.list().flatMap((scope) => scope.caches.sizes().map((entry) => ({ ...entry, cluster: scope.name })));
}

/** Every running problems engine's findings by analyzer and severity (the `pilothouse_problems` gauge); engines start with their scope. */
export function problemCounts(clusters: ClusterScopes): { cluster: string; analyzer: string; severity: string; count: number }[] {
  return clusters.list().flatMap((scope) => {
    if (!scope.problems.running) return [];
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
export function managedObjectsReader(clusters: ClusterScopes): NonNullable<AgentLoopDeps['managedObjects']> {
  return async (request) => {
    const targets = kubectlTargets(request.command);
    if (targets.length === 0) return [];
    const scope = clusters.resolve(request.clusterName);
    const lookup = { resolve: (resource: string) => scope.discovery.resolve(resource), rest: scope.identities.clientFor(request.principal).rest };
    return managedObjects(lookup, targets);
  };
}

/**
 * The problems tool's reader (the chat and `--mcp`): the cluster the call names (absent: home; unknown: NOT_FOUND),
 * as the caller may see it. The first read of a lazy scope (`--mcp`) starts its engine and waits for its first analysis.
 */
export function problemsReader(clusters: ClusterScopes): ProblemsReader {
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

/** The promql tool's cluster (the chat and `--mcp`): the one a call names (absent: home; unknown: NOT_FOUND). */
export function promqlClusterOf(clusters: ClusterScopes): (name: string | undefined) => PromqlCluster {
  return (name) => {
    const scope = clusters.resolve(name);
    return { ...scope, clientFor: (principal) => scope.identities.clientFor(principal) };
  };
}
