import { fileURLToPath } from 'node:url';
import type { Logger } from 'pino';
import type { Clock } from '../clock.js';
import { startHttpSecurity } from './http-security.js';
import type { AuthMode } from '../cli/flags.js';
import type { Config } from '../config/schema.js';
import { allRoutes } from '../http/routes/index.js';
import { startHttpServer, type RunningServer } from '../http/pipeline/server.js';
import { startClusterSide } from '../controllers/bootstrap.js';
import { startConfiguredServers } from '../mcp/mcp-servers.js';
import { composeServices, type Services } from './compose.js';

/** The built web UI (web/dist), relative to the package root (works from src/ and dist/). */
const webRoot = fileURLToPath(new URL('../../web/dist', import.meta.url));

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
  /** `--auth-mode`; overrides config `auth.mode` (`local` and `token` are implemented). */
  authMode?: AuthMode;
  /** `-web`: serve the web UI bundle (web/dist) besides the API. */
  web?: boolean;
  /** Injected time (tests). */
  clock?: Clock;
  /** `pilothouse tui`'s per-process token for its embedded service (required on every request). */
  embedToken?: string;
  /** Where a generated admin password is shown once (stderr by default). */
  announce?: (text: string) => void;
}

export interface Service {
  /** Every composed service (tests reach into them). */
  deps: Services;
  url: string;
  server: RunningServer;
  close(): Promise<void>;
}

/** How long one shutdown step may take before the service stops without it. */
const shutdownStepMs = 10_000;

/** Waits for a shutdown step, at most `shutdownStepMs`; a step that takes longer is logged and left behind. */
async function withinShutdownDeadline(step: string, work: Promise<void>, logger: Logger): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), shutdownStepMs);
    timer.unref();
  });
  const outcome = await Promise.race([
    work.then(
      () => 'done' as const,
      () => 'failed' as const,
    ),
    deadline,
  ]);
  clearTimeout(timer);
  if (outcome !== 'done') logger.warn({ step, outcome }, 'shutdown step did not finish cleanly; stopping anyway');
}

/** Loads what is read synchronously from the stores (the settings snapshot) before anything serves; starts the audit outbox. */
async function startStores(deps: Services): Promise<void> {
  await deps.pilot.settings.start();
  deps.auditOutbox?.start();
  deps.pilot.approvals.start?.();
}

/**
 * Builds every dependency and starts the HTTP API. Used by `pilothouse -web` and by the
 * integration tests alike, so tests exercise the same wiring as production.
 */
export async function startService(options: ServiceOptions): Promise<Service> {
  const deps = composeServices(options);
  const security = await startStores(deps)
    .then(() => startHttpSecurity(deps, options))
    .catch(async (error: unknown) => {
      deps.database.close();
      await deps.store.close();
      await deps.clusters.closeAll();
      throw error;
    });
  await startClusterSide(deps);
  // Each cluster's scope starts: its reachability probed on its own timer, discovery loaded in the background (so the
  // first list waits only for its own data), its problems engine watching.
  for (const scope of deps.clusters.list()) scope.start();
  // A cluster added or rebuilt (a cluster Secret's data changed) starts the same way.
  deps.clusters.onChange((change) => {
    const scope = change.type === 'removed' ? undefined : deps.clusters.get(change.name);
    scope?.start();
  });
  deps.clusterSecrets?.start();
  deps.accessRequests.start();
  await startConfiguredServers(deps.mcp, options.config, deps.logger);
  const server = await startHttpServer(deps, {
    host: options.host,
    port: options.port,
    routes: allRoutes(deps),
    authenticator: security.authenticator,
    ...security.appOptions,
    staticRoot: options.web ? webRoot : undefined,
    embedToken: options.embedToken,
  });
  return {
    deps,
    url: server.url,
    server,
    close: async () => {
      // Each step that talks to the network gets a deadline: a hung API server or MCP child never keeps the process from stopping.
      const bounded = (step: string, work: Promise<void>): Promise<void> => withinShutdownDeadline(step, work, deps.logger);
      await bounded('http server', server.close());
      security.stop();
      await bounded('controllers', deps.controllers.stop());
      deps.accessRequests.stop();
      await bounded('mcp servers', deps.mcp.manager.close());
      // Drains still running here stop beating and storing before their cluster connections go: other replicas end
      // them as abandoned after drainStaleMs.
      deps.drains.close();
      await bounded('cluster secrets', deps.clusterSecrets?.stop() ?? Promise.resolve());
      await bounded('clusters', deps.clusters.closeAll());
      deps.pilot.settings.stop();
      deps.pilot.approvals.stop?.();
      // Rows still waiting stay in this replica's SQLite and are shipped after its next start.
      await bounded(
        'audit outbox',
        (deps.auditOutbox?.flush() ?? Promise.resolve()).catch(() => undefined),
      );
      await bounded('audit outbox stop', deps.auditOutbox?.stop() ?? Promise.resolve());
      await bounded('shared store', deps.store.close());
      deps.database.close();
    },
  };
}
