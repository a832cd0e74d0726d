import type { Clock } from '../../clock.js';
import type { HelmInvocations } from '../../helm/helm-invocations.js';
import type { KubeIdentityClient } from '../../kube/clients.js';
import type { Principal } from '../../rbac/principal.js';
import type { PolicyEngine } from '../../rbac/policy-engine.js';

/**
 * What the report generators need (src/app/compose-reports.ts hands them exactly these, one set per
 * cluster). Every read is made as the requester: with `identities.clientFor(principal)` and filtered by `policy`.
 */
export interface GeneratorDeps {
  /** The cluster the report is generated from (ADR 0035): every dependency below is that cluster's. */
  clusterName: string;
  /** Maps the requester to their cluster identity (impersonation). */
  identities: { clientFor(principal: Principal | undefined): KubeIdentityClient };
  /** The one policy decision (resource-level roles, deny roles, Pilothouse's own namespace). */
  policy: Pick<PolicyEngine, 'authorize'>;
  /**
   * Pilothouse's own client: used only for the Pod Security dry runs (server-side dry-run namespace
   * label patches) that the requester's identity may not make, and only for namespaces the
   * requester may view. Nothing is written: dry runs persist nothing.
   */
  ownClient: KubeIdentityClient;
  /** helm as the requester's identity (Helm releases of the cluster overview). */
  helm: Pick<HelmInvocations, 'for'>;
  /** `reports.trusted_registries`: registries (`ghcr.io`, `registry.example.com/team`) images may come from; empty = no check. */
  trustedRegistries: readonly string[];
  clock: Clock;
}
