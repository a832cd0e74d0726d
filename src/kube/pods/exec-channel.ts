import type { KubeConfig } from '@kubernetes/client-node/dist/config.js';
import WebSocket from 'ws';
import { AppError } from '../../errors.js';
import { mapKubeError } from '../errors.js';

/** Channel numbers of the Kubernetes websocket streaming protocol (`v4.channel.k8s.io`). */
export const channels = { stdin: 0, stdout: 1, stderr: 2, status: 3, resize: 4 } as const;

/** The subprotocols we offer for exec/attach; v4 carries exit statuses as JSON on channel 3. */
export const execProtocols = ['v4.channel.k8s.io'];

/**
 * Opens a websocket to an API server streaming subresource (exec, portforward) with the
 * identity's TLS material, token and impersonation header. A refusal during the upgrade
 * (404 pod, 403, 400) is thrown as the usual AppError.
 */
export async function openChannelSocket(kubeConfig: KubeConfig, path: string, protocols: string[], target: string): Promise<WebSocket> {
  const cluster = kubeConfig.getCurrentCluster();
  if (!cluster) throw new AppError('K8S_ERROR', 'kubeconfig has no current cluster');
  const options: WebSocket.ClientOptions & { headers: Record<string, string> } = { headers: {} };
  await kubeConfig.applyToHTTPSOptions(options as never);
  const url = cluster.server.replace(/^http/, 'ws').replace(/\/$/, '') + path;
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, protocols, { ...options, perMessageDeflate: false });
    socket.once('open', () => resolve(socket));
    socket.once('unexpected-response', (_request, response) => {
      const parts: Buffer[] = [];
      response.on('data', (chunk: Buffer) => parts.push(chunk));
      response.on('end', () => reject(mapKubeError(response.statusCode ?? 500, parseBody(Buffer.concat(parts).toString('utf8')), target)));
    });
    socket.once('error', (error) => reject(new AppError('K8S_ERROR', 'cannot open a stream to the cluster', { reason: error.message, target })));
  });
}

function parseBody(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return { message: text.slice(0, 500) };
  }
}

/** Prefixes a payload with its channel byte. */
export function channelFrame(channel: number, payload: Buffer | string): Buffer {
  const data = typeof payload === 'string' ? Buffer.from(payload, 'utf8') : payload;
  return Buffer.concat([Buffer.from([channel]), data]);
}

/** Splits a received frame into channel and payload. */
export function readFrame(data: WebSocket.RawData): { channel: number; payload: Buffer } {
  const buffer = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer);
  return { channel: buffer[0] ?? -1, payload: buffer.subarray(1) };
}

interface ExitStatus {
  status?: string;
  message?: string;
  reason?: string;
  details?: { causes?: { reason?: string; message?: string }[] };
}

/** The exit code carried by an exec status frame (`Success` → 0; `NonZeroExitCode` → its cause). */
export function exitCodeOf(payload: Buffer): { exitCode: number | null; message?: string } {
  let status: ExitStatus;
  try {
    status = JSON.parse(payload.toString('utf8')) as ExitStatus;
  } catch {
    return { exitCode: null, message: payload.toString('utf8') };
  }
  if (status.status === 'Success') return { exitCode: 0 };
  const cause = status.details?.causes?.find((entry) => entry.reason === 'ExitCode');
  if (cause?.message !== undefined) return { exitCode: Number(cause.message), message: status.message };
  // Runtimes that do not fill the ExitCode cause still say "exit status N" / "exit code N".
  const fromMessage = /exit (?:status|code):? (\d+)/.exec(status.message ?? '');
  if (fromMessage) return { exitCode: Number(fromMessage[1]), message: status.message };
  return { exitCode: null, message: status.message ?? status.reason };
}

/** The exec subresource path with argv as repeated `command` parameters (never a shell line). */
export function execPath(namespace: string, pod: string, options: { container: string; command: string[]; stdin: boolean; tty: boolean }): string {
  const query = new URLSearchParams({ container: options.container, stdout: 'true', stderr: String(!options.tty) });
  if (options.stdin) query.set('stdin', 'true');
  if (options.tty) query.set('tty', 'true');
  for (const argument of options.command) query.append('command', argument);
  return `/api/v1/namespaces/${encodeURIComponent(namespace)}/pods/${encodeURIComponent(pod)}/exec?${query.toString()}`;
}
