import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Starts `server` listening on host:port (port 0 picks a free port). Resolves with its base URL, `http://<address>:<port>`
 * (an IPv6 address in brackets), and a close that ends every open connection too.
 */
export async function listenHttp(server: Server, port: number, host: string): Promise<{ url: string; close(): Promise<void> }> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${shownHost}:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
