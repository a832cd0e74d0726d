import { createServer, type Server } from 'node:http';
import { listenHttp } from '../../net/listen.js';
import { createApp, type AppOptions, type HttpAppDeps } from './app.js';
import { answerClientErrors } from './client-errors.js';
import { allowedHostsFor } from './host-check.js';
import type { RouteSpec } from '../types.js';
import type { WebSocketUpgrades } from './websocket-upgrade.js';

/** What the HTTP server uses of the composed services. */
export interface HttpServerDeps extends HttpAppDeps {
  webSockets: WebSocketUpgrades;
}

export interface HttpServerOptions extends AppOptions {
  host: string;
  port: number;
  routes: RouteSpec[];
  /** `pilothouse tui`'s per-process token: the embedded service answers only requests carrying it. */
  embedToken?: string;
}

export interface RunningServer {
  server: Server;
  url: string;
  close(): Promise<void>;
}

/** Starts the HTTP server on host:port (port 0 picks a free port). */
export async function startHttpServer(deps: HttpServerDeps, options: HttpServerOptions): Promise<RunningServer> {
  const { host: listenHost, port, routes, embedToken, ...appOptions } = options;
  const app = createApp(deps, routes, { ...appOptions, listener: { allowedHosts: allowedHostsFor(deps.config, listenHost), embedToken } });
  const server = createServer(app.callback());
  answerClientErrors(server);
  deps.webSockets.attach(server, app.callback());
  server.keepAliveTimeout = 65_000;
  const { url, close } = await listenHttp(server, port, listenHost);
  return { server, url, close };
}
