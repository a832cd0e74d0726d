import type { KubeConfig } from '@kubernetes/client-node/dist/config.js';
import { Agent as HttpsAgent } from 'node:https';
import type { IdentityRef } from '../../kube/impersonation.js';
import type { Principal } from '../../rbac/principal.js';
import type { PolicyDecision, PolicyMode } from '../../rbac/policy.js';
import type { RequestAttributes } from '../../rbac/request-attributes.js';
import { secretVisibility } from '../../rbac/secret-visibility.js';
import type { ClusterDiscoveryCache, DiscoverySessionTarget, SessionDiscovery, ToolClusterGateway, ToolClusterSession, ToolMode } from '../types.js';
import { loopbackCertificate, type LoopbackCertificate } from './loopback-certificate.js';
import { startPolicyProxy } from './policy-proxy.js';
import { upstreamOf } from './upstream.js';

/** What the gateway needs: the service's connection per cluster identity, impersonation, the policy. */
export interface PolicyProxyGatewayDeps {
  /** The service's kubeconfig for an identity (impersonating it when defined). */
  kubeConfigFor(identity: IdentityRef | undefined): KubeConfig;
  /** The cluster identity a caller is impersonated as (undefined: impersonation is off). */
  identityOf(principal: Principal): IdentityRef | undefined;
  policy: { authorize(principal: Principal | undefined, attributes: RequestAttributes, mode: PolicyMode): Promise<PolicyDecision> };
  /** Parent of the per-call kubeconfig folders (default: the OS temp folder). */
  folderParent?: string;
  /** Sees each request the policy refused (the service's metrics). */
  onDenied?: () => void;
  /**
   * kubectl's warm discovery cache of THIS cluster (src/tools/builtin/kubectl-discovery-cache.ts): handed to
   * this gateway's sessions only, closed with the gateway. Absent: kubectl starts cold on every call.
   */
  discovery?: ClusterDiscoveryCache;
}

/**
 * Opens one policy proxy per tool call, bound to the caller and the call's mode: the tool gets a
 * kubeconfig for the proxy only; the proxy forwards with the service's credentials (and
 * `Impersonate-User` when impersonation is on) what the policy allows.
 */
export class PolicyProxyGateway implements ToolClusterGateway {
  private readonly agent = new HttpsAgent({ keepAlive: true, maxSockets: 64 });
  private served: { certificate: LoopbackCertificate; at: number } | undefined;

  constructor(private readonly deps: PolicyProxyGatewayDeps) {}

  async open(request: { principal: Principal; mode: ToolMode; signal?: AbortSignal }): Promise<ToolClusterSession> {
    const { principal, mode } = request;
    const kubeConfig = this.deps.kubeConfigFor(this.deps.identityOf(principal));
    const proxy = await startPolicyProxy({
      upstream: () => upstreamOf(kubeConfig),
      authorize: async (attributes) => {
        const decision = await this.deps.policy.authorize(principal, attributes, mode);
        if (!decision.allowed) this.deps.onDenied?.();
        return decision;
      },
      secretVisibility: secretVisibility(principal),
      agent: this.agent,
      folderParent: this.deps.folderParent,
      certificate: this.certificate(),
    });
    const onAbort = (): void => void proxy.close();
    request.signal?.addEventListener('abort', onAbort, { once: true });
    return {
      kubeconfigPath: proxy.kubeconfigPath,
      socket: proxy.socket,
      refusals: () => proxy.refusals(),
      discovery: this.sessionDiscovery(proxy),
      close: async () => {
        request.signal?.removeEventListener('abort', onAbort);
        await proxy.close();
      },
    };
  }

  /**
   * The proxies' TLS certificate: one key pair for an hour (valid for a day), not one per call. It only
   * proves the proxy to kubectl; each call's credential is its own one-time token on its own port, and the
   * key never leaves this process.
   */
  private certificate(): LoopbackCertificate {
    const now = Date.now();
    if (!this.served || now - this.served.at > 3600_000) this.served = { certificate: loopbackCertificate(new Date(now)), at: now };
    return this.served.certificate;
  }

  /** The cluster's discovery cache, bound to one session of this gateway. */
  private sessionDiscovery(target: DiscoverySessionTarget): SessionDiscovery | undefined {
    const cache = this.deps.discovery;
    if (!cache) return undefined;
    return { prepare: (cacheDir) => cache.prepare(target, cacheDir), settle: () => cache.settle() };
  }

  /** Closes the pooled upstream connections and removes the cluster's discovery copies (the cluster goes). */
  close(): void {
    this.agent.destroy();
    this.deps.discovery?.close();
  }
}
