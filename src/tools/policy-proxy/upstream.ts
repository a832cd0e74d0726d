import type { KubeConfig } from '@kubernetes/client-node/dist/config.js';

/** TLS settings of the connection to the real API server. */
export interface UpstreamTls {
  ca?: Buffer;
  cert?: Buffer;
  key?: Buffer;
  rejectUnauthorized?: boolean;
  servername?: string;
}

/** Where the proxy forwards to and with which credentials (the service's own, plus impersonation). */
export interface Upstream {
  /** The API server's base URL (a path prefix of the server URL is kept). */
  url: URL;
  tls: UpstreamTls;
  /** Authorization (bearer or basic) and Impersonate-User, as the kubeconfig asks. */
  headers: Record<string, string>;
}

interface HttpsOptions extends UpstreamTls {
  headers?: Record<string, string>;
  auth?: string;
}

/**
 * The upstream of a kubeconfig's current context, read the way the REST client reads it
 * (`applyToHTTPSOptions`: CA or insecure, client cert/key, bearer token, exec/OIDC plugins,
 * `as`). Called per request so refreshed tokens are used.
 */
export async function upstreamOf(kubeConfig: KubeConfig): Promise<Upstream> {
  const cluster = kubeConfig.getCurrentCluster();
  if (!cluster) throw new Error('kubeconfig has no current cluster');
  const options: HttpsOptions = { headers: {} };
  await kubeConfig.applyToHTTPSOptions(options as never);
  const headers = { ...options.headers };
  if (options.auth && !headers.Authorization) headers.Authorization = `Basic ${Buffer.from(options.auth).toString('base64')}`;
  const tls: UpstreamTls = {
    ca: options.ca,
    cert: options.cert,
    key: options.key,
    rejectUnauthorized: options.rejectUnauthorized,
    servername: options.servername,
  };
  return { url: new URL(cluster.server.replace(/\/$/, '')), tls, headers };
}

/** The upstream URL for a canonical request path and query, under the server URL's own path prefix. */
export function upstreamUrl(upstream: Upstream, target: { pathname: string; search: string }): URL {
  const url = new URL(upstream.url.origin);
  url.pathname = upstream.url.pathname.replace(/\/$/, '') + target.pathname;
  url.search = target.search;
  return url;
}
