import type { Logger } from 'pino';
import { NoAuthAuthenticator } from './auth/authenticator.js';
import type { Config } from './config/schema.js';
import type { AppDeps } from './deps.js';
import { allRoutes } from './http/routes/index.js';
import { buildCoreDeps, startHttpServer, type RunningServer } from './server.js';
import { startClusterSide } from './controllers/bootstrap.js';

export interface ServiceOptions {
  config: Config;
  logger: Logger;
  dataDir: string;
  kubeconfigPath?: string;
  context?: string;
  host: string;
  port: number;
  noAuth: boolean;
  adminPassword?: string;
  configPath?: string;
}

export interface Service {
  deps: AppDeps;
  url: string;
  server: RunningServer;
  close(): Promise<void>;
}

/**
 * Builds every dependency and starts the HTTP API. Used by `pilothouse -web` and by the
 * integration tests alike, so tests exercise the same wiring as production.
 */
export async function startService(options: ServiceOptions): Promise<Service> {
  const deps = buildCoreDeps(options);
  await startClusterSide(deps);
  const server = await startHttpServer(deps, {
    host: options.host,
    port: options.port,
    routes: allRoutes(deps),
    authenticator: new NoAuthAuthenticator(),
    grantCheck: () => false,
  });
  return {
    deps,
    url: server.url,
    server,
    close: async () => {
      await server.close();
      await deps.controllers.stop();
      deps.caches.close();
      await deps.kube.close();
      deps.database.close();
    },
  };
}
