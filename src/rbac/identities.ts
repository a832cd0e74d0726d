import type { Principal } from './principal.js';
import type { Config } from '../config/schema.js';
import type { KubeClients, KubeIdentityClient } from '../kube/clients.js';
import type { KubectlInvocation } from '../kube/resources.js';

/** Maps a caller to the cluster identity their calls are made with (impersonation). */
export interface IdentityResolver {
  /** The impersonated identity for a principal, or undefined for the service's own identity. */
  identityOf(principal: Principal | undefined): string | undefined;
  clientFor(principal: Principal | undefined): KubeIdentityClient;
  /** kubectl settings (binary, kubeconfig, context, `--as`) for a principal. */
  kubectlFor(principal: Principal | undefined): KubectlInvocation;
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
  ) {}

  identityOf(principal: Principal | undefined): string | undefined {
    const impersonation = this.config.authorization.impersonation;
    if (!impersonation.enabled) return undefined;
    const role = principal?.role ?? 'viewer';
    // Fail closed: a role without a mapping gets the viewer identity, never the service's own.
    return impersonation.mappings[role] ?? impersonation.mappings.viewer ?? 'system:anonymous';
  }

  clientFor(principal: Principal | undefined): KubeIdentityClient {
    return this.kube.forIdentity(this.identityOf(principal));
  }

  kubectlFor(principal: Principal | undefined): KubectlInvocation {
    return {
      kubectlPath: this.kubectlPath,
      kubeconfigPath: this.kube.connection.kubeconfigPath,
      context: this.kube.connection.context,
      impersonate: this.identityOf(principal),
    };
  }
}
