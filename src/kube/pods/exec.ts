import type WebSocket from 'ws';
import type { KubeIdentityClient } from '../clients.js';
import { channels, execPath, execProtocols, exitCodeOf, openChannelSocket, readFrame } from './exec-channel.js';

export interface ExecRequest {
  namespace: string;
  pod: string;
  /** The resolved container (see resolveContainer). */
  container: string;
  /** argv; passed as-is to the container runtime, never through a shell of ours. */
  command: string[];
}

export interface ExecLimits {
  outputLimit: number;
  timeoutMs: number;
}

/** The outcome of one command. `truncated` when output hit the cap; `timedOut` when it was stopped. */
export interface ExecResult {
  stdout: string;
  stderr: string;
  exitCode: number | null;
  truncated?: boolean;
  timedOut?: boolean;
  message?: string;
}

/** Collects two output streams under one shared byte cap. */
class CappedOutput {
  readonly parts = { stdout: [] as Buffer[], stderr: [] as Buffer[] };
  size = 0;
  truncated = false;

  constructor(private readonly limit: number) {}

  add(stream: 'stdout' | 'stderr', payload: Buffer): void {
    const room = this.limit - this.size;
    if (payload.length > room) this.truncated = true;
    const kept = payload.subarray(0, Math.max(0, room));
    this.size += kept.length;
    if (kept.length > 0) this.parts[stream].push(kept);
  }

  text(stream: 'stdout' | 'stderr'): string {
    return Buffer.concat(this.parts[stream]).toString('utf8');
  }
}

/** Runs a command in a container with the caller's identity and returns its output and exit code. */
export async function execInPod(client: KubeIdentityClient, request: ExecRequest, limits: ExecLimits): Promise<ExecResult> {
  const path = execPath(request.namespace, request.pod, { container: request.container, command: request.command, stdin: false, tty: false });
  const socket = await openChannelSocket(client.kubeConfig, path, execProtocols, `pods/${request.pod}`);
  return collect(socket, limits);
}

function collect(socket: WebSocket, limits: ExecLimits): Promise<ExecResult> {
  const output = new CappedOutput(limits.outputLimit);
  let status: { exitCode: number | null; message?: string } = { exitCode: null };
  let timedOut = false;
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      timedOut = true;
      socket.terminate();
    }, limits.timeoutMs);
    socket.on('message', (data) => {
      const { channel, payload } = readFrame(data);
      if (channel === channels.stdout) output.add('stdout', payload);
      else if (channel === channels.stderr) output.add('stderr', payload);
      else if (channel === channels.status) status = exitCodeOf(payload);
    });
    socket.once('close', () => {
      clearTimeout(timer);
      resolve({
        stdout: output.text('stdout'),
        stderr: output.text('stderr'),
        exitCode: status.exitCode,
        ...(output.truncated ? { truncated: true } : {}),
        ...(timedOut ? { timedOut: true } : {}),
        ...(status.exitCode === null && status.message ? { message: status.message } : {}),
      });
    });
  });
}
