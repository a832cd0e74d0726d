import type { CacheManager } from '../kube/cache-manager.js';
import type { KubeClients } from '../kube/clients.js';
import type { ClusterHealth } from '../kube/cluster-health.js';
import type { ClusterMember, ClusterSet } from '../kube/cluster-set.js';
import type { Discovery } from '../kube/discovery.js';
import type { ListView } from '../kube/list-view/list-view.js';
import type { HelmInvocations } from '../helm/helm-invocations.js';
import type { GrantCheck } from '../rbac/authorize.js';
import type { RoleIdentityResolver } from '../rbac/identities.js';
import type { PolicyEngine } from '../rbac/policy-engine.js';
import type { PolicyProxyGateway } from '../tools/policy-proxy/gateway.js';
import type { PrometheusSource } from '../prometheus/prometheus-source.js';
import type { UsageMemory } from '../prometheus/usage-memory.js';
import type { ProblemsEngine } from '../problems/engine.js';

/**
 * One cluster as every path sees it (ADR 0035): its clients, discovery, watch-fed caches and list view,
 * impersonation mapping, policy (the role rules that hold there, its grants), the AI's policy proxy,
 * helm, and its reachability. Built per cluster by src/app/compose-clusters.ts; a request's scope is
 * chosen by `?cluster=` (`scopeOf` in request-state.ts).
 */
export interface ClusterScope extends ClusterMember {
  kube: KubeClients;
  discovery: Discovery;
  caches: CacheManager;
  lists: ListView;
  identities: RoleIdentityResolver;
  policy: PolicyEngine;
  grantCheck: GrantCheck;
  toolCluster: PolicyProxyGateway;
  helm: HelmInvocations;
  health: ClusterHealth;
  /** The cluster's Prometheus, configured or detected (usage history and PromQL, issue 36). */
  prometheus: PrometheusSource;
  /** This replica's short usage history from metrics-server, for a cluster without Prometheus. */
  usageMemory: UsageMemory;
  /** The cluster's live diagnosis (src/problems): started by its first reader, closed with the scope. */
  problems: ProblemsEngine;
}

export type ClusterScopes = ClusterSet<ClusterScope>;
