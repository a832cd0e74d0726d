import { rmSync } from 'node:fs';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createServer, type Agent as HttpsAgent } from 'node:https';
import { createServer as createSocketServer, type AddressInfo, type Server as SocketServer, type Socket } from 'node:net';
import path from 'node:path';
import type { Duplex } from 'node:stream';
import type { SecretVisibility } from '../../rbac/secret-visibility.js';
import type { ToolClusterRefusal } from '../types.js';
import { admit, type AdmissionContext, type Authorize } from './admission.js';
import { forwardRequest } from './forward-request.js';
import { forwardUpgrade } from './forward-upgrade.js';
import { loopbackCertificate, type LoopbackCertificate } from './loopback-certificate.js';
import { writeProxyKubeconfig, type ProxyEndpoint } from './proxy-kubeconfig.js';
import { newProxyToken } from './proxy-token.js';
import { RefusalLog } from './refusal-log.js';
import { secretMaskFor } from './secret-responses.js';
import { writeSocketStatus, writeStatus } from './status.js';
import type { Upstream } from './upstream.js';

/** What one proxy needs: where to forward (with which credentials) and who decides. */
export interface PolicyProxyOptions {
  /** The API server and the service's credentials plus the caller's impersonation (read per request). */
  upstream(): Promise<Upstream>;
  authorize: Authorize;
  /** What the caller may see of secret values: answers carrying more are masked (secret-responses.ts). */
  secretVisibility: SecretVisibility;
  /** Keep-alive pool for plain requests (shared by the proxies of one gateway). */
  agent: HttpsAgent;
  /** Parent of the private kubeconfig folder (default: the OS temp folder). */
  folderParent?: string;
  /** The TLS certificate to serve (default: a fresh one); the gateway reuses one for an hour. */
  certificate?: LoopbackCertificate;
}

/** One tool call's Kubernetes API endpoint on loopback. */
export interface PolicyProxy {
  url: string;
  /** The generated kubeconfig: the proxy's URL and one-time token, nothing else. */
  kubeconfigPath: string;
  /** The same TLS endpoint on a Unix socket in the kubeconfig's folder, and the loopback port of `url` (for the bash sandbox). */
  socket: { path: string; port: number };
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
    const mask = secretMaskFor(admission.target.attributes, options.secretVisibility);
    forwardRequest(request, response, admission.target, { upstream, agent: options.agent, mask });
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
 * Listens on `socketPath` (inside the private kubeconfig folder) and hands every connection to the TLS
 * server as if it had come in over TCP: same certificate, token and policy. The bash sandbox, which
 * has no network but its own loopback, reaches the proxy only this way.
 */
function listenOnSocket(server: Server, socketPath: string): Promise<SocketServer> {
  const socketServer = createSocketServer((socket) => server.emit('connection', socket));
  return new Promise((resolve, reject) => {
    socketServer.once('error', reject);
    socketServer.listen(socketPath, () => resolve(socketServer));
  });
}

/** Writes the kubeconfig into a fresh private folder and listens on `proxy.sock` beside it; on failure closes the server and removes the folder. */
async function openFolder(
  server: Server,
  endpoint: ProxyEndpoint,
  folderParent: string | undefined,
): Promise<{ folder: string; kubeconfigPath: string; socketPath: string; socketServer: SocketServer }> {
  let folder: string | undefined;
  try {
    const written = writeProxyKubeconfig(endpoint, folderParent);
    folder = written.folder;
    const socketPath = path.join(written.folder, 'proxy.sock');
    return { ...written, socketPath, socketServer: await listenOnSocket(server, socketPath) };
  } catch (error) {
    server.close();
    if (folder) rmSync(folder, { recursive: true, force: true });
    throw error;
  }
}

/**
 * Starts the policy proxy of one tool call: HTTPS on 127.0.0.1, port 0 (and on `proxy.sock` in the
 * kubeconfig's folder, for the bash sandbox), with a fresh self-signed
 * certificate (kubectl sends bearer tokens only over TLS) and a one-time bearer token.
 * Every request is parsed into request attributes and decided by `authorize`; a refusal is a
 * Kubernetes `Status` 403 with the policy's reason (kubectl prints it); an allowed request goes to
 * the real API server with the service's credentials, streamed both ways (upgrades included).
 */
export async function startPolicyProxy(options: PolicyProxyOptions): Promise<PolicyProxy> {
  const context: AdmissionContext = { token: newProxyToken(), authorize: options.authorize, refusals: new RefusalLog() };
  const sockets = new Set<Socket>();
  const certificate = options.certificate ?? loopbackCertificate();
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
  const port = await listen(server);
  const url = `https://127.0.0.1:${port}`;
  const opened = await openFolder(server, { url, certificate: certificate.cert, token: context.token }, options.folderParent);
  let closing: Promise<void> | undefined;
  const close = async (): Promise<void> => {
    const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
    const socketStopped = new Promise<void>((resolve) => opened.socketServer.close(() => resolve()));
    for (const socket of sockets) socket.destroy();
    // A handful of entries (kubeconfig, socket, the discovery link): removed at once, not entry by entry through the thread pool.
    rmSync(opened.folder, { recursive: true, force: true });
    await Promise.all([stopped, socketStopped]);
  };
  return {
    url,
    kubeconfigPath: opened.kubeconfigPath,
    socket: { path: opened.socketPath, port },
    refusals: () => context.refusals.list(),
    close: () => (closing ??= close()),
  };
}
