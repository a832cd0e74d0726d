import { rm } from 'node:fs/promises';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createServer, type Agent as HttpsAgent } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { ToolClusterRefusal } from '../types.js';
import { admit, type AdmissionContext, type Authorize } from './admission.js';
import { forwardRequest } from './forward-request.js';
import { forwardUpgrade } from './forward-upgrade.js';
import { loopbackCertificate } from './loopback-certificate.js';
import { writeProxyKubeconfig } from './proxy-kubeconfig.js';
import { newProxyToken } from './proxy-token.js';
import { RefusalLog } from './refusal-log.js';
import { writeSocketStatus, writeStatus } from './status.js';
import type { Upstream } from './upstream.js';

/** What one proxy needs: where to forward (with which credentials) and who decides. */
export interface PolicyProxyOptions {
  /** The API server and the service's credentials plus the caller's impersonation (read per request). */
  upstream(): Promise<Upstream>;
  authorize: Authorize;
  /** Keep-alive pool for plain requests (shared by the proxies of one gateway). */
  agent: HttpsAgent;
  /** Parent of the private kubeconfig folder (default: the OS temp folder). */
  folderParent?: string;
}

/** One tool call's Kubernetes API endpoint on loopback. */
export interface PolicyProxy {
  url: string;
  /** The generated kubeconfig: the proxy's URL and one-time token, nothing else. */
  kubeconfigPath: string;
  refusals(): readonly ToolClusterRefusal[];
  /** Stops listening, destroys open connections (watches, exec streams) and deletes the folder. */
  close(): Promise<void>;
}

const unavailable = { code: 503, reason: 'ServiceUnavailable', message: 'the policy proxy has no API server credentials' } as const;
const failed = { code: 503, reason: 'ServiceUnavailable', message: 'the policy proxy could not forward this request' } as const;

/** A handler failure never escapes (it would end the service): the client gets a Status or a closed connection. */
function failSafe(response: ServerResponse): () => void {
  return () => {
    if (!response.headersSent) writeStatus(response, failed);
    else response.destroy();
  };
}

function handleRequest(options: PolicyProxyOptions, context: AdmissionContext) {
  return async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const admission = await admit(request, context);
    if (!admission.admitted) return writeStatus(response, admission.answer);
    const upstream = await options.upstream().catch(() => undefined);
    if (!upstream) return writeStatus(response, unavailable);
    forwardRequest(request, response, admission.target, { upstream, agent: options.agent });
  };
}

function handleUpgrade(options: PolicyProxyOptions, context: AdmissionContext) {
  return async (request: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> => {
    socket.on('error', () => socket.destroy());
    const admission = await admit(request, context);
    if (!admission.admitted) return writeSocketStatus(socket, admission.answer);
    const upstream = await options.upstream().catch(() => undefined);
    if (!upstream) return writeSocketStatus(socket, unavailable);
    forwardUpgrade(request, { socket, head }, admission.target, upstream);
  };
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
}

/**
 * Starts the policy proxy of one tool call: HTTPS on 127.0.0.1, port 0, with a fresh self-signed
 * certificate (kubectl sends bearer tokens only over TLS) and a one-time bearer token.
 * Every request is parsed into request attributes and decided by `authorize`; a refusal is a
 * Kubernetes `Status` 403 with the policy's reason (kubectl prints it); an allowed request goes to
 * the real API server with the service's credentials, streamed both ways (upgrades included).
 */
export async function startPolicyProxy(options: PolicyProxyOptions): Promise<PolicyProxy> {
  const context: AdmissionContext = { token: newProxyToken(), authorize: options.authorize, refusals: new RefusalLog() };
  const sockets = new Set<Socket>();
  const certificate = loopbackCertificate();
  const server = createServer({ ...certificate, requestTimeout: 0 }, (request, response) => {
    handleRequest(options, context)(request, response).catch(failSafe(response));
  });
  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    handleUpgrade(options, context)(request, socket, head).catch(() => socket.destroy());
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  const url = `https://127.0.0.1:${await listen(server)}`;
  const written = await writeProxyKubeconfig({ url, certificate: certificate.cert, token: context.token }, options.folderParent).catch(
    async (error: unknown) => {
      server.close();
      throw error;
    },
  );
  let closing: Promise<void> | undefined;
  const close = async (): Promise<void> => {
    const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const socket of sockets) socket.destroy();
    await Promise.all([stopped, rm(written.folder, { recursive: true, force: true })]);
  };
  return {
    url,
    kubeconfigPath: written.kubeconfigPath,
    refusals: () => context.refusals.list(),
    close: () => (closing ??= close()),
  };
}
