import type { Logger } from 'pino';
import { NoAuthAuthenticator } from '../auth/authenticator.js';
import type { Flags } from '../cli/flags.js';
import type { Config } from '../config/schema.js';
import { allRoutes } from '../http/routes/index.js';
import { buildCoreDeps, startHttpServer } from '../server.js';

/** Runs the HTTP API (and web UI with -web) until SIGINT/SIGTERM. Returns the exit code. */
export async function runServe(flags: Flags, config: Config, logger: Logger): Promise<number> {
  const deps = buildCoreDeps({ config, logger, dataDir: flags.dataDir, kubeconfigPath: flags.kubeconfig, context: flags.context });
  if (flags.noAuth) {
    logger.warn('AUTHENTICATION IS DISABLED (--no-auth): every request acts as admin "anonymous". Development only.');
    process.stderr.write('\n*** WARNING: --no-auth: authentication is OFF, every request is admin. Never use this in production. ***\n\n');
  }
  const running = await startHttpServer(deps, {
    host: flags.host ?? config.server.host,
    port: flags.port ?? config.server.port,
    routes: allRoutes(deps),
    authenticator: new NoAuthAuthenticator(),
    grantCheck: () => false,
  });
  logger.info({ url: running.url }, 'listening');
  process.stdout.write(`Pilothouse listening on ${running.url}\n`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await running.close();
  deps.caches.close();
  await deps.kube.close();
  deps.database.close();
  return 0;
}
