import type { Logger } from 'pino';
import type { Flags } from '../cli/flags.js';
import { resolveAdminPassword } from '../cli/admin-password.js';
import { authDisabled, listenHost, noAuthBanner } from '../cli/listen-address.js';
import type { Config } from '../config/schema.js';
import { startService } from '../app/service.js';

/** Runs the HTTP API (and web UI with -web) until SIGINT/SIGTERM. Returns the exit code. */
export async function runServe(flags: Flags, config: Config, logger: Logger): Promise<number> {
  // Read first: a bad --admin-password-file is a usage error before anything starts.
  const adminPassword = resolveAdminPassword(flags, process.env);
  const noAuth = authDisabled(flags, config);
  const host = listenHost(flags, config);
  if (noAuth) {
    logger.warn({ host }, 'AUTHENTICATION IS DISABLED (--no-auth or auth.mode: none): every request acts as admin "anonymous". Development only.');
    process.stderr.write(noAuthBanner);
  }
  // Listening for the stop signals from the start: a SIGTERM while starting still ends in a clean close.
  const stopRequested = new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  const service = await startService({
    config,
    logger,
    dataDir: flags.dataDir,
    kubeconfigPath: flags.kubeconfig,
    context: flags.context,
    host,
    port: flags.port ?? config.server.port,
    noAuth,
    web: flags.web,
    adminPassword,
    authMode: flags.authMode,
    configPath: flags.configPath,
  });
  logger.info({ url: service.url }, 'listening');
  process.stdout.write(`Pilothouse listening on ${service.url}\n`);
  await stopRequested;
  await service.close();
  // Every step of the close has its deadline; whatever a step left behind (a socket to an API server that never
  // answers) must not keep the process alive past it.
  setTimeout(() => process.exit(0), 2000).unref();
  return 0;
}
