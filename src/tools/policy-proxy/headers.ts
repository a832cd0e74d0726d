import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http';

/** Hop-by-hop headers (RFC 9110 7.6.1) plus the ones a client could use to pick an identity. */
const hopByHop = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
]);

/** Identity headers the client may not send: the proxy's token and any impersonation or front-proxy identity. */
function identityHeader(name: string): boolean {
  return name === 'authorization' || name.startsWith('impersonate-') || name.startsWith('x-remote-');
}

/** Headers named in the Connection header are hop-by-hop too. */
function connectionListed(headers: IncomingHttpHeaders): Set<string> {
  const listed = String(headers.connection ?? '')
    .toLowerCase()
    .split(',')
    .map((name) => name.trim());
  return new Set(listed.filter((name) => name !== '' && name !== 'upgrade'));
}

/**
 * The client's request headers to forward: without hop-by-hop, Authorization, `Impersonate-*` and
 * `X-Remote-*`; the service's credentials (and impersonation) are added on top. An upgrade keeps
 * `Connection: Upgrade` and its `Upgrade` protocol.
 */
export function forwardedRequestHeaders(incoming: IncomingHttpHeaders, service: Record<string, string>, upgrade: boolean): OutgoingHttpHeaders {
  const listed = connectionListed(incoming);
  const headers: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(incoming)) {
    if (value === undefined || hopByHop.has(name) || listed.has(name) || identityHeader(name)) continue;
    headers[name] = value;
  }
  if (upgrade) {
    headers.connection = 'Upgrade';
    headers.upgrade = incoming.upgrade;
  }
  return { ...headers, ...service };
}

/** The API server's response headers to pass back, without hop-by-hop ones. */
export function forwardedResponseHeaders(incoming: IncomingHttpHeaders): OutgoingHttpHeaders {
  const listed = connectionListed(incoming);
  const headers: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(incoming)) {
    if (value === undefined || hopByHop.has(name) || listed.has(name)) continue;
    headers[name] = value;
  }
  return headers;
}
