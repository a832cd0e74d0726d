import { accessSync, constants } from 'node:fs';
import type { Principal } from '../rbac/principal.js';
import type { KubectlInvocation } from '../kube/objects/resources.js';
import { helmMissing, type HelmInvocation } from './helm-runner.js';

export interface HelmInvocationSettings {
  /** The helm binary (looked up at the call, so a missing helm fails only the helm routes). */
  helmPath: () => string;
  /** Root of Helm's cache/config/data, `<dataDir>/helm`. */
  homeDirectory: string;
  timeoutMs: number;
}

/** Whether the helm routes can run (`details.helm` of /api/health). */
export interface HelmHealth {
  status: 'available' | 'unavailable';
  reason?: string;
}

/** The kubectl settings (kubeconfig, context, `--as`) a caller's helm runs with on one cluster (src/clusters/identities.ts). */
export interface KubectlSettingsOf {
  kubectlFor(principal: Principal | undefined): KubectlInvocation;
}

/** Builds helm invocations that act as a caller's cluster identity; one per service (src/app/compose.ts). */
export class HelmInvocations {
  constructor(
    private readonly identities: KubectlSettingsOf,
    private readonly settings: HelmInvocationSettings,
  ) {}

  /** helm for the caller's identity, with Helm state under the data dir; UNAVAILABLE (503) without a helm binary. */
  for(principal: Principal | undefined): HelmInvocation {
    const helmPath = this.binary();
    const kubectl = this.identities.kubectlFor(principal);
    return {
      helmPath,
      homeDirectory: this.settings.homeDirectory,
      kubeconfigPath: kubectl.kubeconfigPath,
      context: kubectl.context,
      impersonate: kubectl.impersonate,
      impersonateGroups: kubectl.impersonateGroups,
      timeoutMs: this.settings.timeoutMs,
    };
  }

  /** The health check: an executable helm binary, or the reason the helm routes answer 503. */
  health(): HelmHealth {
    try {
      this.binary();
      return { status: 'available' };
    } catch (error) {
      return { status: 'unavailable', reason: (error as Error).message };
    }
  }

  private binary(): string {
    try {
      const helmPath = this.settings.helmPath();
      // A configured path or name that is not an executable (tools.helm) is as missing as no helm at all.
      accessSync(helmPath, constants.X_OK);
      return helmPath;
    } catch {
      throw helmMissing();
    }
  }
}
