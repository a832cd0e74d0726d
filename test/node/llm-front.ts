// The LLM as the pod on the real node sees it: a TCP listener on this host's address (the node's
// InternalIP, which pods reach through the bridge), either relaying to the scripted LLM wire server
// (on loopback) or hanging: it accepts and never answers, like a provider that stopped responding.
import { connect, createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export type LlmFrontMode = 'wire' | 'hang';

export interface LlmFront {
  port: number;
  /** Connections accepted since the last `setMode`. */
  accepted(): number;
  /** Switches how new connections are served; open ones are dropped. */
  setMode(mode: LlmFrontMode): void;
  close(): Promise<void>;
}

function relay(socket: Socket, wirePort: number): void {
  const upstream = connect(wirePort, '127.0.0.1');
  socket.pipe(upstream).pipe(socket);
  const drop = (): void => {
    socket.destroy();
    upstream.destroy();
  };
  socket.on('error', drop);
  upstream.on('error', drop);
  socket.on('close', drop);
  upstream.on('close', drop);
}

/** Listens on `host`:0 and serves each connection by the current mode (initially `wire`). */
export async function startLlmFront(host: string, wirePort: number): Promise<LlmFront> {
  let mode: LlmFrontMode = 'wire';
  let accepted = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    accepted += 1;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    // Hanging: the request is read and nothing is ever written back.
    if (mode === 'hang') socket.resume();
    else relay(socket, wirePort);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, resolve);
  });
  return {
    port: (server.address() as AddressInfo).port,
    accepted: () => accepted,
    setMode: (next) => {
      mode = next;
      accepted = 0;
      for (const socket of sockets) socket.destroy();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
