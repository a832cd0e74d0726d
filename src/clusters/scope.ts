import type { CacheManager } from '../kube/cache/cache-manager.js';
import type { KubeClients } from '../kube/clients.js';
import type { ClusterHealth } from './cluster-health.js';
import type { ClusterMember, ClusterSet } from './cluster-set.js';
import type { Discovery } from '../kube/discovery.js';
import type { ListView } from '../kube/list-view/list-view.js';
import type { HelmInvocations } from '../helm/helm-invocations.js';
import type { GrantCheck } from '../rbac/authorize.js';
import type { RoleIdentityResolver } from './identities.js';
import type { PolicyEngine } from '../rbac/policy-engine.js';
import type { PolicyProxyGateway } from '../tools/policy-proxy/gateway.js';
import type { PrometheusSource } from '../prometheus/prometheus-source.js';
import type { UsageMemory } from '../prometheus/usage-memory.js';
import type { ProblemsEngine } from '../problems/engine.js';

/**
 * One cluster as every path sees it (ADR 0035, STYLE habit 18): its clients, discovery, watch-fed caches and list
 * view, impersonation mapping, policy (the role rules that hold there, its grants), the AI's policy proxy gateway,
 * helm, its reachability and its live diagnosis. Built per cluster by the one factory, src/clusters/scope-factory.ts
 * (eager in the service, lazy in `--mcp`); a request's scope is chosen by `?cluster=` (`scopeOf` in request-state.ts).
 */
export interface ClusterScope extends ClusterMember {
  kube: KubeClients;
  discovery: Discovery;
  caches: CacheManager;
  lists: ListView;
  identities: RoleIdentityResolver;
  policy: PolicyEngine;
  grantCheck: GrantCheck;
  /** Opens the per-call policy proxy of the AI's kubectl and bash tools on this cluster. */
  proxyGateway: PolicyProxyGateway;
  helm: HelmInvocations;
  health: ClusterHealth;
  /** The cluster's Prometheus, configured or detected (usage history and PromQL, issue 36). */
  prometheus: PrometheusSource;
  /** This replica's short usage history from metrics-server, for a cluster without Prometheus. */
  usageMemory: UsageMemory;
  /** The cluster's live diagnosis (src/problems): started with the scope (lazily in `--mcp`: at its first reader), closed with it. */
  problems: ProblemsEngine;
  /** Starts what runs while the cluster is served: the reachability probe, discovery in the background, the problems engine. */
  start(): void;
}

export type ClusterScopes = ClusterSet<ClusterScope>;
