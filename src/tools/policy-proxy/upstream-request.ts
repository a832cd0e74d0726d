import { request as httpRequest, type ClientRequest, type OutgoingHttpHeaders } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { Upstream } from './upstream.js';

/** Opens one request to the API server with the upstream's TLS settings; `agent: false` for upgrades. */
export function upstreamRequest(
  upstream: Upstream,
  url: URL,
  init: { method: string; headers: OutgoingHttpHeaders; agent: HttpsAgent | false },
): ClientRequest {
  const options = { method: init.method, headers: init.headers };
  if (url.protocol === 'http:') return httpRequest(url, { ...options, agent: init.agent === false ? false : undefined });
  return httpsRequest(url, { ...options, ...upstream.tls, agent: init.agent });
}
