import type { Principal } from './principal.js';

/**
 * The one rule of who sees secret values (Secret `data`/`stringData`, MCPServer `spec.env`), by
 * any path: objects, YAML, describe, helm manifests. Viewers (and unauthenticated callers) never do.
 */
export function maySeeSecretValues(principal: Principal | undefined): boolean {
  return principal?.role === 'user' || principal?.role === 'admin';
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
  values: boolean;
  lastApplied: boolean;
}

/** The caller's {@link SecretVisibility}. */
export function secretVisibility(principal: Principal | undefined): SecretVisibility {
  return { values: maySeeSecretValues(principal), lastApplied: maySeeLastApplied(principal) };
}
