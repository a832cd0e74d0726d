import type { Principal } from '../rbac/principal.js';
import type { IdentityResolver } from '../rbac/identities.js';
import type { HelmInvocation } from './helm-runner.js';

export interface HelmInvocationSettings {
  /** The helm binary (looked up at the call, so a missing helm fails only the helm routes). */
  helmPath: () => string;
  /** Root of Helm's cache/config/data, `<dataDir>/helm`. */
  homeDirectory: string;
  timeoutMs: number;
}

/** Builds helm invocations that act as a caller's cluster identity; one per service (src/app/compose.ts). */
export class HelmInvocations {
  constructor(
    private readonly identities: IdentityResolver,
    private readonly settings: HelmInvocationSettings,
  ) {}

  /** helm for the caller's identity, with Helm state under the data dir. */
  for(principal: Principal | undefined): HelmInvocation {
    const kubectl = this.identities.kubectlFor(principal);
    return {
      helmPath: this.settings.helmPath(),
      homeDirectory: this.settings.homeDirectory,
      kubeconfigPath: kubectl.kubeconfigPath,
      context: kubectl.context,
      impersonate: kubectl.impersonate,
      impersonateGroups: kubectl.impersonateGroups,
      timeoutMs: this.settings.timeoutMs,
    };
  }
}
