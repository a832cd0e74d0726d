import type { Logger } from 'pino';
import type { Flags } from '../cli/flags.js';
import type { Config } from '../config/schema.js';
import { startService } from '../app/service.js';

/** Runs the HTTP API (and web UI with -web) until SIGINT/SIGTERM. Returns the exit code. */
export async function runServe(flags: Flags, config: Config, logger: Logger): Promise<number> {
  if (flags.noAuth) {
    logger.warn('AUTHENTICATION IS DISABLED (--no-auth): every request acts as admin "anonymous". Development only.');
    process.stderr.write('\n*** WARNING: --no-auth: authentication is OFF, every request is admin. Never use this in production. ***\n\n');
  }
  const service = await startService({
    config,
    logger,
    dataDir: flags.dataDir,
    kubeconfigPath: flags.kubeconfig,
    context: flags.context,
    host: flags.host ?? config.server.host,
    port: flags.port ?? config.server.port,
    noAuth: flags.noAuth,
    web: flags.web,
    adminPassword: flags.adminPassword,
    authMode: flags.authMode,
    configPath: flags.configPath,
  });
  logger.info({ url: service.url }, 'listening');
  process.stdout.write(`Pilothouse listening on ${service.url}\n`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await service.close();
  return 0;
}
