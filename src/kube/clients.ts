import { KubeConfig } from '@kubernetes/client-node/dist/config.js';
import { RestClient, type CallObserver, type RestClientOptions } from './rest-client.js';
import { clusterIdentity, GroupImpersonatingKubeConfig, type ClusterIdentity, type IdentityRef } from './impersonation.js';

export interface KubeConnectionOptions {
  kubeconfigPath?: string;
  context?: string;
}

/** One cluster identity: the service's own (identity undefined) or an impersonated one. */
export interface KubeIdentityClient {
  /** The impersonated user name, or undefined for the service's own identity. */
  readonly identity: string | undefined;
  /** The impersonated groups (with `identity`, the caller's whole identity). */
  readonly groups?: readonly string[];
  readonly kubeConfig: KubeConfig;
  readonly rest: RestClient;
}

/** Loads the kubeconfig (file, context, or in-cluster) the way kubectl does. */
export function loadKubeConfig(options: KubeConnectionOptions): KubeConfig {
  const kubeConfig = new KubeConfig();
  if (options.kubeconfigPath) kubeConfig.loadFromFile(options.kubeconfigPath);
  else kubeConfig.loadFromDefault();
  if (options.context) kubeConfig.setCurrentContext(options.context);
  return kubeConfig;
}

/**
 * Hands out one client per cluster identity. With impersonation on there are at most
 * one identity per role plus the service's own, so pools and caches stay small.
 */
export class KubeClients {
  private readonly clients = new Map<string, KubeIdentityClient>();

  constructor(
    readonly base: KubeConfig,
    readonly connection: KubeConnectionOptions,
    private readonly observe?: CallObserver,
    /** Every identity's calls on this cluster (its own answer timeout). */
    private readonly restOptions: RestClientOptions = {},
  ) {}

  /** The API server's URL (`https://host:port`), which outbound URLs set through the API may never name. */
  apiServerUrl(): string | undefined {
    return this.base.getCurrentCluster()?.server;
  }

  /** The client for `identity` (impersonated via the Impersonate-User and Impersonate-Group headers), or the service's own. */
  forIdentity(identity?: IdentityRef): KubeIdentityClient {
    const target = identity ? clusterIdentity(identity) : undefined;
    const key = target ? [target.user, ...target.groups].join('\u0000') : '';
    let client = this.clients.get(key);
    if (!client) {
      const kubeConfig = target ? impersonating(this.base, target) : this.base;
      client = { identity: target?.user, groups: target?.groups, kubeConfig, rest: new RestClient(kubeConfig, this.observe, this.restOptions) };
      this.clients.set(key, client);
    }
    return client;
  }

  async close(): Promise<void> {
    await Promise.all([...this.clients.values()].map((client) => client.rest.close()));
  }
}

/** A copy of `base` whose current user impersonates `identity` (and its groups). */
function impersonating(base: KubeConfig, target: ClusterIdentity): KubeConfig {
  const identity = target.user;
  const copy = new GroupImpersonatingKubeConfig(target.groups);
  copy.loadFromString(base.exportConfig());
  const context = copy.getContextObject(copy.getCurrentContext());
  const user = copy.getCurrentUser();
  if (!context || !user) throw new Error('kubeconfig has no current user');
  const name = `${user.name}-as-${identity}`;
  copy.addUser({ ...user, name, impersonateUser: identity });
  copy.addContext({ ...context, name: `${context.name}-as-${identity}`, user: name });
  copy.setCurrentContext(`${context.name}-as-${identity}`);
  return copy;
}
