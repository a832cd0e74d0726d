import type { Principal } from '../rbac/principal.js';
import type { Config } from '../config/schema.js';
import type { KubeClients, KubeIdentityClient } from '../kube/clients.js';
import type { KubectlInvocation } from '../kube/objects/resources.js';
import type { ClusterIdentity } from '../kube/impersonation.js';

/** Maps a caller to the cluster identity their calls are made with (impersonation). */
export interface IdentityResolver {
  /** The impersonated identity for a principal, or undefined for the service's own identity. */
  identityOf(principal: Principal | undefined): string | undefined;
  /** The impersonated user and groups (groups only for SSO users under `impersonation.mode: user`). */
  clusterIdentityOf(principal: Principal | undefined): ClusterIdentity | undefined;
  clientFor(principal: Principal | undefined): KubeIdentityClient;
  /** kubectl settings (binary, kubeconfig, context, `--as`) for a principal. */
  kubectlFor(principal: Principal | undefined): KubectlInvocation;
}

/** The role whose mapping a caller is impersonated as: its `identityRole` (investigations), else its role; none: viewer. */
function mappedRole(principal: Principal | undefined): Principal['role'] {
  return principal?.identityRole ?? principal?.role ?? 'viewer';
}

/**
 * Role-based impersonation: with `authorization.impersonation.enabled`, a caller's cluster
 * calls are made as the identity mapped from their role, so the API server's RBAC decides too.
 */
export class RoleIdentityResolver implements IdentityResolver {
  constructor(
    private readonly config: Config,
    private readonly kube: KubeClients,
    private readonly kubectlPath: string,
    /** This cluster's own mappings (`clusters[].impersonation.mappings`), over `authorization.impersonation.mappings`. */
    private readonly overrides: Partial<Record<Principal['role'], string>> = {},
  ) {}

  identityOf(principal: Principal | undefined): string | undefined {
    return this.clusterIdentityOf(principal)?.user;
  }

  clusterIdentityOf(principal: Principal | undefined): ClusterIdentity | undefined {
    const impersonation = this.config.authorization.impersonation;
    if (!impersonation.enabled) return undefined;
    // `mode: user`: an SSO user acts toward the cluster as themselves (prefixed name and groups), as in Headlamp.
    if (impersonation.mode === 'user' && principal?.identitySource === 'oidc') return { user: principal.username, groups: principal.groups ?? [] };
    const role = mappedRole(principal);
    const mappings = this.mappings();
    // Fail closed: a role without a mapping gets the viewer identity, never the service's own.
    return { user: mappings[role] ?? mappings.viewer ?? 'system:anonymous', groups: [] };
  }

  /** The role → identity mappings that hold on this cluster: its own (`clusters[].impersonation.mappings`) over the global ones. */
  mappings(): Partial<Record<Principal['role'], string>> {
    return { ...this.config.authorization.impersonation.mappings, ...this.overrides };
  }

  clientFor(principal: Principal | undefined): KubeIdentityClient {
    return this.kube.forIdentity(this.clusterIdentityOf(principal));
  }

  kubectlFor(principal: Principal | undefined): KubectlInvocation {
    return {
      kubectlPath: this.kubectlPath,
      kubeconfigPath: this.kube.connection.kubeconfigPath,
      context: this.kube.connection.context,
      impersonate: this.identityOf(principal),
      impersonateGroups: this.clusterIdentityOf(principal)?.groups,
    };
  }
}
