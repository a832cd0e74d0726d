import { createServer as createHttp1Server, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttp2Server, type Http2ServerRequest, type Http2ServerResponse, type Http2Session } from 'node:http2';
import { connect, createServer as createNetServer, type AddressInfo, type Server, type Socket } from 'node:net';

export type WireHandler = (request: IncomingMessage | Http2ServerRequest, response: ServerResponse | Http2ServerResponse) => void;

export interface WireListener {
  port: number;
  close(): Promise<void>;
}

const http2Preface = 'PRI * HTTP/2.0';

async function listenLocal(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/** Pipes a front-door connection to the internal HTTP/2 server, replaying its first bytes. */
function proxyTo(port: number, socket: Socket, first: Buffer, sockets: Set<Socket>): void {
  const upstream = connect(port, '127.0.0.1', () => {
    upstream.write(first);
    socket.pipe(upstream).pipe(socket);
    socket.resume();
  });
  sockets.add(upstream);
  upstream.once('close', () => socket.destroy());
  socket.once('close', () => upstream.destroy());
  upstream.on('error', () => socket.destroy());
}

/**
 * One port, two protocols: HTTP/1.1 (openai, ollama, gemini SDKs) and cleartext
 * HTTP/2 with prior knowledge (the AWS SDK's default handler for Bedrock). The
 * first bytes of each connection pick the protocol; HTTP/2 goes through a local
 * TCP hop because nghttp2 reads the socket handle directly.
 */
export async function listenHttp1AndHttp2(handler: WireHandler): Promise<WireListener> {
  const http1 = createHttp1Server(handler);
  const http2 = createHttp2Server(handler);
  const sessions = new Set<Http2Session>();
  http2.on('session', (session) => {
    sessions.add(session);
    session.once('close', () => sessions.delete(session));
  });
  const http2Port = await listenLocal(http2);
  const sockets = new Set<Socket>();
  const front = createNetServer((socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    socket.once('data', (first: Buffer) => {
      socket.pause();
      if (first.toString('latin1', 0, http2Preface.length) === http2Preface) return proxyTo(http2Port, socket, first, sockets);
      socket.unshift(first);
      http1.emit('connection', socket);
      socket.resume();
    });
  });
  const port = await listenLocal(front);
  return {
    port,
    close: async () => {
      for (const session of sessions) session.destroy();
      for (const socket of sockets) socket.destroy();
      await Promise.all([new Promise((resolve) => front.close(resolve)), new Promise((resolve) => http2.close(resolve))]);
    },
  };
}
