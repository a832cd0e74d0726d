import type WebSocket from 'ws';
import { z } from 'zod';
import type { KubeIdentityClient } from '../clients.js';
import { channelFrame, channels, execPath, execProtocols, exitCodeOf, openChannelSocket, readFrame } from './exec-channel.js';

/** Frames the browser sends. */
export const terminalInputSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('input'), data: z.string().max(64 * 1024) }),
  z.object({ type: z.literal('resize'), cols: z.number().int().min(1).max(1000), rows: z.number().int().min(1).max(1000) }),
]);
export type TerminalInput = z.infer<typeof terminalInputSchema>;

/** Frames the browser receives. */
export type TerminalOutput = { type: 'output'; data: string } | { type: 'error'; message: string } | { type: 'exit'; code: number | null };

/** The default shell: bash when the image has it, sh otherwise (what most web consoles do). */
export const defaultShellCommand = ['/bin/sh', '-c', 'TERM=xterm-256color; export TERM; [ -x /bin/bash ] && exec /bin/bash || exec /bin/sh'];

export interface TerminalTarget {
  namespace: string;
  pod: string;
  container: string;
  command: string[];
}

/** Opens the pod side of a terminal: an interactive TTY exec with the caller's identity. */
export function openPodTerminal(client: KubeIdentityClient, target: TerminalTarget): Promise<WebSocket> {
  const path = execPath(target.namespace, target.pod, { container: target.container, command: target.command, stdin: true, tty: true });
  return openChannelSocket(client.kubeConfig, path, execProtocols, `pods/${target.pod}`);
}

function send(browser: WebSocket, frame: TerminalOutput): void {
  if (browser.readyState === browser.OPEN) browser.send(JSON.stringify(frame));
}

function forwardInput(browser: WebSocket, pod: WebSocket, data: WebSocket.RawData): void {
  let frame: TerminalInput;
  try {
    frame = terminalInputSchema.parse(JSON.parse(data.toString()));
  } catch {
    return send(browser, { type: 'error', message: 'invalid frame: expected {type:"input",data} or {type:"resize",cols,rows}' });
  }
  if (pod.readyState !== pod.OPEN) return;
  if (frame.type === 'input') pod.send(channelFrame(channels.stdin, frame.data));
  else pod.send(channelFrame(channels.resize, JSON.stringify({ Width: frame.cols, Height: frame.rows })));
}

/** Bridges browser JSON frames and the pod's channel stream until either side closes. */
export function bridgeTerminal(browser: WebSocket, pod: WebSocket): void {
  let exited = false;
  pod.on('message', (data) => {
    const { channel, payload } = readFrame(data);
    if (channel === channels.stdout || channel === channels.stderr) return send(browser, { type: 'output', data: payload.toString('utf8') });
    if (channel !== channels.status) return;
    exited = true;
    send(browser, { type: 'exit', code: exitCodeOf(payload).exitCode });
  });
  pod.once('close', () => {
    if (!exited) send(browser, { type: 'exit', code: null });
    browser.close(1000, 'terminal closed');
  });
  pod.once('error', (error) => send(browser, { type: 'error', message: error.message }));
  browser.on('message', (data) => forwardInput(browser, pod, data));
  browser.once('close', () => pod.close());
}
