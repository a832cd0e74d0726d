import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { pipeline } from 'node:stream';
import { forwardedRequestHeaders } from './headers.js';
import type { RequestTarget } from './request-target.js';
import { writeSocketStatus } from './status.js';
import { upstreamRequest } from './upstream-request.js';
import { upstreamUrl, type Upstream } from './upstream.js';

/** The raw response head of an upstream answer (status line and headers as received). */
function rawHead(answer: IncomingMessage, extra: readonly string[] = []): string {
  const lines = [`HTTP/1.1 ${answer.statusCode ?? 502} ${answer.statusMessage ?? ''}`];
  for (let index = 0; index + 1 < answer.rawHeaders.length; index += 2) {
    const name = answer.rawHeaders[index] as string;
    if (extra.length > 0 && /^(connection|transfer-encoding|keep-alive)$/i.test(name)) continue;
    lines.push(`${name}: ${answer.rawHeaders[index + 1]}`);
  }
  return `${[...lines, ...extra].join('\r\n')}\r\n\r\n`;
}

/** Pipes two sockets both ways; either side closing or failing ends both. */
function splice(client: Duplex, upstream: Duplex): void {
  const end = (): void => {
    client.destroy();
    upstream.destroy();
  };
  pipeline(upstream, client, end);
  pipeline(client, upstream, end);
}

/**
 * Forwards an upgrade (exec, attach, port-forward over WebSocket or SPDY): opens its own TLS
 * connection to the API server with the service's credentials, relays the 101 answer and then
 * the bytes both ways. A refusal by the API server (no 101) is relayed as a plain answer.
 */
export function forwardUpgrade(request: IncomingMessage, client: { socket: Duplex; head: Buffer }, target: RequestTarget, upstream: Upstream): void {
  const { socket: clientSocket, head } = client;
  const outgoing = upstreamRequest(upstream, upstreamUrl(upstream, target), {
    method: request.method ?? 'GET',
    headers: forwardedRequestHeaders(request.headers, upstream.headers, true),
    agent: false,
  });
  outgoing.on('upgrade', (answer, socket, upstreamHead) => {
    clientSocket.write(rawHead(answer));
    if (upstreamHead.length > 0) clientSocket.write(upstreamHead);
    if (head.length > 0) socket.write(head);
    splice(clientSocket, socket);
  });
  outgoing.on('response', (answer) => {
    clientSocket.write(rawHead(answer, ['Connection: close']));
    pipeline(answer, clientSocket, () => clientSocket.destroy());
  });
  outgoing.on('error', () =>
    writeSocketStatus(clientSocket, { code: 503, reason: 'ServiceUnavailable', message: 'the policy proxy could not reach the API server' }),
  );
  clientSocket.on('close', () => outgoing.destroy());
  outgoing.end();
}
