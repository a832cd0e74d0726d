import WebSocket from 'ws';
import type { Target } from '../api/types.js';
import type { Shell } from '../core/shell.js';

/** ctrl-\ (0x1c): detaches from the pod's shell back to the UI (the shell keeps no state; it ends). */
export const detachKey = '\x1c';

interface Frame {
  type: string;
  data?: string;
  message?: string;
  code?: number | null;
}

/** Bridges the raw terminal to the terminal WebSocket until the shell exits or the user detaches. */
function bridge(socket: WebSocket): Promise<void> {
  const stdin = process.stdin;
  const stdout = process.stdout;
  return new Promise((resolve) => {
    let finished = false;
    // Ends once: the socket's close (and error) arrive after a detach or an exit frame has already handed the
    // terminal back, and a second round would turn raw mode off and pause stdin under the resumed UI.
    const finish = (): void => {
      if (finished) return;
      finished = true;
      stdin.off('data', onInput);
      stdout.off('resize', onResize);
      if (stdin.isTTY) stdin.setRawMode(false);
      stdin.pause();
      socket.close();
      resolve();
    };
    // ink reads stdin as utf8 text, so chunks arrive as strings (Buffers without it).
    const onInput = (chunk: Buffer | string): void => {
      const text = typeof chunk === 'string' ? chunk : chunk.toString('utf8');
      if (text.includes(detachKey)) return finish();
      socket.send(JSON.stringify({ type: 'input', data: text }));
    };
    const onResize = (): void => socket.send(JSON.stringify({ type: 'resize', cols: stdout.columns, rows: stdout.rows }));
    socket.on('open', () => {
      onResize();
      if (stdin.isTTY) stdin.setRawMode(true);
      stdin.resume();
      stdin.on('data', onInput);
      stdout.on('resize', onResize);
    });
    socket.on('message', (raw) => {
      const frame = JSON.parse(raw.toString()) as Frame;
      if (frame.type === 'output') stdout.write(frame.data ?? '');
      else if (frame.type === 'error') stdout.write(`\r\n${frame.message ?? ''}\r\n`);
      else if (frame.type === 'exit') finish();
    });
    socket.on('close', finish);
    socket.on('error', finish);
  });
}

/** `s` on a pod: a shell through the terminal WebSocket (one-time ticket), in raw mode; ctrl-\ detaches. */
export async function openShell(shell: Shell, target: Target): Promise<void> {
  const scope = { permission: 'execute_write' as const, namespace: target.namespace, resource: 'pods' };
  const issued = await shell.write(() => shell.api.terminalTicket(target), scope);
  if (!issued) return;
  const url = shell.api.client.url(`/api/pods/${encodeURIComponent(target.name)}/terminal`, {
    namespace: target.namespace,
    container: issued.container,
    ticket: issued.ticket,
  });
  await shell.suspend(async () => {
    process.stdout.write(`${shell.t('tui.shell.attached', { pod: target.name, container: issued.container })}\r\n`);
    await bridge(new WebSocket(url.replace(/^http/, 'ws'), ['pilothouse.terminal.v1'], { headers: shell.api.client.serviceHeaders() }));
  });
}
