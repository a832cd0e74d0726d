import type { Config } from '../../config/schema.js';
import { clusterAccessSummary } from '../../rbac/cluster-rules.js';
import type { ClusterScope, ClusterScopes } from '../../clusters/scope.js';
import { clusterList, type ClusterSummaryView } from '../schemas/cluster-schemas.js';
import { principalOf } from '../request-state.js';
import { route, type RouteSpec } from '../types.js';
import type { Principal } from '../../rbac/principal.js';
import type { ClusterSecretRefusal } from '../../clusters/secret-watch.js';
import { countBySeverity, type SeverityCounts } from '../../problems/finding.js';
import { visibleFindings } from '../../problems/visible-findings.js';
import { visibilityOf } from './problems.js';

/** What this module uses of the composed services (src/app/compose.ts hands it exactly these). */
export interface ClustersRouteDeps {
  clusters: ClusterScopes;
  config: Config;
  /** The watch of cluster Secrets (absent with `cluster.secrets: false`): the Secrets it refused. */
  clusterSecrets?: { refusals(): readonly ClusterSecretRefusal[] };
}

/** Admins see which labelled Secrets name a cluster without registering it (Secret names of Pilothouse's own namespace). */
function refusedSecrets(deps: ClustersRouteDeps, principal: Principal, cluster: string): Pick<ClusterSummaryView, 'refusedSecrets'> {
  if (principal.role !== 'admin' || !deps.clusterSecrets) return {};
  const refused = deps.clusterSecrets
    .refusals()
    .filter((refusal) => refusal.cluster === cluster)
    .map((refusal) => ({ secret: refusal.secret, reason: refusal.reason }));
  return refused.length > 0 ? { refusedSecrets: refused } : {};
}

/**
 * The caller's counts of a cluster's findings: only once its engine's first analysis is done and the cluster
 * answered its last probe (this list never waits on a cluster). The engine starts with its cluster's scope.
 */
async function problemCounts(scope: ClusterScope, principal: Principal): Promise<SeverityCounts | undefined> {
  if (!scope.health.current.reachable) return undefined;
  if (!scope.problems.ready) return undefined;
  const viewer = { principal, client: scope.identities.clientFor(principal) };
  const seen = await visibleFindings(visibilityOf(scope), viewer, scope.problems.findings()).catch(() => undefined);
  return seen ? countBySeverity(seen.filter((finding) => !finding.ignored)) : undefined;
}

async function summary(scope: ClusterScope, principal: Principal, deps: ClustersRouteDeps): Promise<ClusterSummaryView> {
  const config = deps.config;
  const counts = await problemCounts(scope, principal);
  const state = scope.health.current;
  // A cluster that is down has no reachable Prometheus behind its API server: not asked now.
  const history =
    state.reachable || scope.prometheus.config.url
      ? await scope.prometheus.status()
      : { available: false, source: 'none' as const, reason: 'the cluster is unreachable' };
  return {
    name: scope.name,
    source: scope.source,
    reachable: state.reachable,
    ...(state.version ? { version: state.version } : {}),
    ...(state.error ? { error: state.error } : {}),
    ...(state.checkedAt !== undefined ? { checkedAt: new Date(state.checkedAt).toISOString() } : {}),
    access: clusterAccessSummary(principal, config.authorization.roles, scope.name),
    ...refusedSecrets(deps, principal, scope.name),
    history,
    ...(counts ? { problems: counts } : {}),
  };
}

/** The clusters of this Pilothouse (ADR 0035): reachability from each one's own probe, never a call made now. */
export function clustersRoutes(deps: ClustersRouteDeps): RouteSpec[] {
  return [
    route({
      method: 'GET',
      path: '/api/clusters',
      permission: 'view',
      summary:
        "Every cluster (the home cluster first): {home, items: [{name, source, reachable, version?, error?, checkedAt?, access, history, problems?, refusedSecrets?}]}; access is the caller's on that cluster, history whether a Prometheus serves usage history there, problems the counts of its findings they may see; refusedSecrets (admins): cluster Secrets naming it that it refused",
      response: clusterList,
      handler: async (context) => {
        const principal = principalOf(context);
        const items = await Promise.all(deps.clusters.list().map((scope) => summary(scope, principal, deps)));
        context.body = { home: deps.clusters.homeName, items };
      },
    }),
  ];
}
