import { FitAddon } from '@xterm/addon-fit';
import { Terminal } from '@xterm/xterm';
import '@xterm/xterm/css/xterm.css';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useApi } from '../../shared/api-context';
import { useT } from '../../i18n';
import { ErrorNotice } from '../../shared/ErrorNotice';
import type { ResourceTarget } from '../../shared/resource-target';
import { openTerminalSocket, type TerminalFrame } from './terminal-socket';
import './terminal.css';

type Status = 'connecting' | 'open' | 'closed';

/** Wires a terminal to a pod's shell socket: keystrokes and pastes out, output in, size on every resize. */
function connect(terminal: Terminal, fit: FitAddon, socket: WebSocket, onStatus: (status: Status, message?: string) => void): () => void {
  const send = (frame: object): void => {
    if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(frame));
  };
  const resize = (): void => {
    fit.fit();
    send({ type: 'resize', cols: terminal.cols, rows: terminal.rows });
  };
  socket.addEventListener('open', () => {
    onStatus('open');
    resize();
    terminal.focus();
  });
  socket.addEventListener('message', (event: MessageEvent<string>) => {
    const frame = JSON.parse(event.data) as TerminalFrame;
    if (frame.type === 'output' && frame.data) terminal.write(frame.data);
    if (frame.type === 'error') onStatus('closed', frame.message);
    if (frame.type === 'exit') onStatus('closed');
  });
  socket.addEventListener('close', () => onStatus('closed'));
  const input = terminal.onData((data) => send({ type: 'input', data }));
  const observer = new ResizeObserver(() => resize());
  if (terminal.element?.parentElement) observer.observe(terminal.element.parentElement);
  return () => {
    input.dispose();
    observer.disconnect();
    socket.close();
  };
}

/**
 * A shell in the pod (xterm.js over the terminal WebSocket, opened with a one-time ticket): fits
 * its box and tells the pod its size, copy by selecting (ctrl/cmd-c with a selection), paste with ctrl/cmd-v.
 */
export function TerminalTab({ target }: { target: ResourceTarget }): ReactNode {
  const client = useApi();
  const t = useT();
  const host = useRef<HTMLDivElement>(null);
  const [status, setStatus] = useState<Status>('connecting');
  const [error, setError] = useState<unknown>();
  const [generation, setGeneration] = useState(0);

  useEffect(() => {
    const terminal = new Terminal({ cursorBlink: true, fontSize: 13, convertEol: false, scrollback: 5000 });
    const fit = new FitAddon();
    terminal.loadAddon(fit);
    if (host.current) terminal.open(host.current);
    fit.fit();
    // Copy: ctrl/cmd-c copies when text is selected (otherwise it is the shell's interrupt).
    terminal.attachCustomKeyEventHandler((event) => {
      const copy = (event.ctrlKey || event.metaKey) && event.key === 'c' && event.type === 'keydown' && terminal.hasSelection();
      if (copy) void navigator.clipboard?.writeText(terminal.getSelection());
      return !copy;
    });
    let disconnect = (): void => undefined;
    let cancelled = false;
    openTerminalSocket(client, target).then(
      (socket) => {
        if (cancelled) return socket.close();
        disconnect = connect(terminal, fit, socket, (next, message) => {
          setStatus(next);
          if (message) setError(new Error(message));
        });
      },
      (failure: unknown) => {
        setError(failure);
        setStatus('closed');
      },
    );
    return () => {
      cancelled = true;
      disconnect();
      terminal.dispose();
    };
  }, [client, target, generation]);

  return (
    <div className="terminal-tab">
      <div className="tab-actions">
        <span className="muted small" role="status">
          {t(`objects.terminal.${status}`)}
        </span>
        {status === 'closed' && (
          <button
            type="button"
            onClick={() => {
              setError(undefined);
              setStatus('connecting');
              setGeneration((value) => value + 1);
            }}
          >
            {t('objects.terminal.reconnect')}
          </button>
        )}
      </div>
      <ErrorNotice error={error} />
      <div ref={host} className="terminal-host" aria-label={t('objects.terminal.label')} />
    </div>
  );
}
