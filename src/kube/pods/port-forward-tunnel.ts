import { createServer, type Server, type Socket } from 'node:net';
import type { Logger } from 'pino';
import type WebSocket from 'ws';
import type { KubeIdentityClient } from '../clients.js';
import { channelFrame, openChannelSocket, readFrame } from './exec-channel.js';

export interface TunnelTarget {
  namespace: string;
  pod: string;
  podPort: number;
}

const dataChannel = 0;
const errorChannel = 1;

/**
 * A local TCP listener whose every connection is carried to a pod port through the API
 * server's portforward subresource (websocket, `v4.channel.k8s.io`: channel 0 data,
 * channel 1 errors, each channel's first two bytes the port number).
 */
export class PortForwardTunnel {
  private server?: Server;
  private readonly connections = new Set<Socket>();

  constructor(
    private readonly client: KubeIdentityClient,
    readonly target: TunnelTarget,
    private readonly logger: Logger,
  ) {}

  /** Starts listening; resolves with the bound port. Rejects with the socket error (e.g. EADDRINUSE). */
  listen(bindAddress: string, localPort: number): Promise<number> {
    const server = createServer((socket) => this.accept(socket));
    this.server = server;
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(localPort, bindAddress, () => {
        server.off('error', reject);
        const address = server.address();
        resolve(typeof address === 'object' && address ? address.port : localPort);
      });
    });
  }

  /** Stops listening and closes every forwarded connection. */
  close(): Promise<void> {
    for (const socket of this.connections) socket.destroy();
    this.connections.clear();
    const server = this.server;
    this.server = undefined;
    if (!server?.listening) return Promise.resolve();
    return new Promise((resolve) => server.close(() => resolve()));
  }

  private accept(socket: Socket): void {
    this.connections.add(socket);
    socket.pause();
    socket.once('close', () => this.connections.delete(socket));
    const path = `/api/v1/namespaces/${encodeURIComponent(this.target.namespace)}/pods/${encodeURIComponent(this.target.pod)}/portforward?ports=${this.target.podPort}`;
    openChannelSocket(this.client.kubeConfig, path, ['v4.channel.k8s.io'], `pods/${this.target.pod}`).then(
      (stream) => this.pipe(socket, stream),
      (error: unknown) => {
        this.logger.info({ pod: this.target.pod, err: error instanceof Error ? error.message : String(error) }, 'port-forward connection failed');
        socket.destroy();
      },
    );
  }

  private pipe(socket: Socket, stream: WebSocket): void {
    const portPrefixPending = new Set([dataChannel, errorChannel]);
    stream.on('message', (data) => {
      const frame = readFrame(data);
      let payload = frame.payload;
      if (portPrefixPending.delete(frame.channel)) payload = payload.subarray(2);
      if (payload.length === 0) return;
      if (frame.channel === dataChannel) socket.write(payload);
      else if (frame.channel === errorChannel) {
        this.logger.info({ pod: this.target.pod, err: payload.toString('utf8') }, 'port-forward error from the pod');
        socket.destroy();
      }
    });
    stream.once('close', () => socket.end());
    stream.once('error', () => socket.destroy());
    socket.on('data', (chunk: Buffer) => stream.send(channelFrame(dataChannel, chunk)));
    socket.once('close', () => stream.close());
    socket.on('error', () => stream.close());
    socket.resume();
  }
}
