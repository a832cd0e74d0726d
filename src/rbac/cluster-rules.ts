import type { ResourceRole, RoleName } from '../config/schema.js';
import type { Principal } from './principal.js';
import { permissionMatrix } from './permissions.js';
import { covers, effectiveRoles, type ResourceVerb } from './resource-roles.js';

/** The write verbs of resource-level roles (everything but get, list, watch). */
const writeVerbs: readonly ResourceVerb[] = ['create', 'update', 'patch', 'delete'];

/**
 * The role rules (config `authorization.roles`) that hold on one cluster: those without `clusters`
 * (every cluster) and those naming it (docs/adr/0035-many-clusters.md, Policy). Each cluster's
 * PolicyEngine is built from exactly these, so a deny scoped to `prod` refuses on prod only, an
 * allow scoped to `dev` extends nothing on prod, and deny overrides allow within each cluster.
 */
export function rulesForCluster(roles: readonly ResourceRole[], clusterName: string): ResourceRole[] {
  return roles.filter((rule) => rule.clusters === undefined || rule.clusters.includes(clusterName));
}

/** What a caller may do on one cluster (`access` of GET /api/clusters). */
export interface ClusterAccessSummary {
  /** The caller's base role (the permission matrix is the same on every cluster). */
  role: RoleName;
  /** The caller's resource-level roles with at least one rule on this cluster, in config order. */
  roles: string[];
  /** Whether some write is open to the caller there (see `clusterAccessSummary`). */
  write: boolean;
}

/**
 * Whether a deny rule refuses this verb on every resource in every namespace: a target of no names and
 * no namespace is covered only by `resources: ['*']` and `namespaces: ['*']`.
 */
function deniedEverywhere(rules: readonly ResourceRole[], verb: ResourceVerb): boolean {
  return rules.some((rule) => rule.effect === 'deny' && covers(rule, { names: [], verb, namespace: undefined }));
}

/** Whether an allow rule speaks of this verb somewhere (it extends the matrix's `execute_write`/`delete`). */
function allowedSomewhere(rules: readonly ResourceRole[], verb: ResourceVerb): boolean {
  return rules.some((rule) => rule.effect === 'allow' && (rule.verbs.includes('*') || rule.verbs.includes(verb)));
}

/** Whether the base role writes by the matrix (`yes`, or `approval` with a just-in-time grant). */
function matrixWrites(role: RoleName): boolean {
  return permissionMatrix.execute_write[role] !== 'no' || permissionMatrix.delete[role] !== 'no';
}

/**
 * The caller's access on one cluster, decided as `decide` (src/rbac/policy.ts) would: `roles` are the
 * caller's resource-level roles that hold there; `write` is whether some write verb is open there
 * somewhere: for admin and user (user with an approved access request) unless deny rules refuse every
 * write verb on every resource in every namespace; for a viewer only where an allow rule extends a write
 * verb the deny rules do not refuse everywhere.
 */
export function clusterAccessSummary(principal: Principal, roles: readonly ResourceRole[], clusterName: string): ClusterAccessSummary {
  const applying = effectiveRoles(rulesForCluster(roles, clusterName), principal.role, principal.roles);
  const open = writeVerbs.filter((verb) => !deniedEverywhere(applying, verb));
  const write = matrixWrites(principal.role) ? open.length > 0 : open.some((verb) => allowedSomewhere(applying, verb));
  return { role: principal.role, roles: [...new Set(applying.map((rule) => rule.name))], write };
}
