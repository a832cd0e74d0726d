import type { Principal } from './principal.js';
import { roleSeesValues, secretKinds, type SecretKind } from './secret-kinds.js';

/**
 * The one rule of who sees secret values, by any path (objects, lists, watches, YAML, describe, helm
 * manifests, the AI's kubectl): per kind of src/rbac/secret-kinds.ts. Secret `data`/`stringData`:
 * users and admins; MCPServer `spec.env` (credentials Pilothouse hands the servers it starts): admins
 * only. Viewers (and unauthenticated callers) never see any.
 */
export function maySeeSecretValues(principal: Principal | undefined, kind: SecretKind): boolean {
  return roleSeesValues(principal?.role, kind);
}

/**
 * Whether the `kubectl.kubernetes.io/last-applied-configuration` annotation of objects that carry
 * secret values is shown: only to admins (it repeats the values as they were applied).
 */
export function maySeeLastApplied(principal: Principal | undefined): boolean {
  return principal?.role === 'admin';
}

/** What of an object's secret values a caller sees. */
export interface SecretVisibility {
  /** Per secret-carrying kind: whether its values are shown. */
  values: Readonly<Record<SecretKind, boolean>>;
  lastApplied: boolean;
}

/** The caller's {@link SecretVisibility}. */
export function secretVisibility(principal: Principal | undefined): SecretVisibility {
  const values = Object.fromEntries(secretKinds.map((entry) => [entry.kind, maySeeSecretValues(principal, entry.kind)])) as Record<SecretKind, boolean>;
  return { values, lastApplied: maySeeLastApplied(principal) };
}

/** Whether the caller sees everything of every secret-carrying kind (nothing to mask). */
export function seesEverything(visibility: SecretVisibility): boolean {
  return visibility.lastApplied && Object.values(visibility.values).every(Boolean);
}
