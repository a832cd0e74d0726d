import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pino } from 'pino';
import { UsageError, type Flags } from '../cli/flags.js';
import type { Config } from '../config/schema.js';
import { createLogger } from '../log.js';
import { loadKubeConfig } from '../kube/clients.js';
import { startService, type Service } from '../app/service.js';
import { deviceLogin } from '../cli/sso-device-login.js';
import { languageFrom, createTranslate } from '../tui/core/i18n.js';
import { UnknownClusterError } from '../tui/core/clusters.js';
import type { TerminalUiOptions } from '../tui/run.js';

/** The current kubeconfig context's name, as kubectl shows it (the embedded service works against it). */
function currentContext(flags: Flags): string {
  try {
    return flags.context ?? loadKubeConfig({ kubeconfigPath: flags.kubeconfig }).getCurrentContext();
  } catch {
    return 'in-cluster';
  }
}

/**
 * Embedded mode: a Pilothouse on 127.0.0.1:0, authentication off, data in the per-user dir, logs to a
 * file there. Loopback is shared with every local user and sandbox, so the service answers only
 * requests carrying `embedToken`, a random value this process made and keeps in memory (ADR 0027).
 */
async function startEmbedded(flags: Flags, config: Config, embedToken: string): Promise<Service> {
  mkdirSync(flags.dataDir, { recursive: true });
  const logger = createLogger(flags.logLevel, pino.destination({ dest: join(flags.dataDir, 'tui-service.log'), mkdir: true, sync: false }));
  return startService({
    config,
    logger,
    dataDir: flags.dataDir,
    kubeconfigPath: flags.kubeconfig,
    context: flags.context,
    host: '127.0.0.1',
    port: 0,
    noAuth: true,
    embedToken,
  });
}

/** Remote mode's session: `--token-file`, `--sso` (device sign-in, printed before the UI starts), or none yet (the login prompt). */
async function remoteSession(flags: Flags, url: string): Promise<Pick<TerminalUiOptions, 'session' | 'signIn'>> {
  const sso = async (show: (text: string) => void): Promise<{ token: string; expiresAt: number }> => {
    const session = await deviceLogin(url, (prompt) => show(`${prompt.verificationUriComplete ?? prompt.verificationUri}  code: ${prompt.userCode}`));
    return { token: session.token, expiresAt: Date.parse(session.expires_at) };
  };
  if (flags.tui.tokenFile) return { session: { token: readFileSync(flags.tui.tokenFile, 'utf8').trim() }, signIn: { username: flags.tui.username } };
  if (flags.tui.sso) return { session: await sso((text) => process.stdout.write(`${text}\n`)), signIn: { sso } };
  return { signIn: { username: flags.tui.username } };
}

/** `--cluster` naming no cluster of the service is a usage error (exit 2), said in one line. */
async function usageOnUnknownCluster(work: Promise<void>): Promise<void> {
  try {
    await work;
  } catch (error) {
    throw error instanceof UnknownClusterError ? new UsageError(error.message) : error;
  }
}

/** `pilothouse tui`: the terminal UI, against an embedded Pilothouse (no --url) or a remote one. Returns the exit code. */
export async function runTui(flags: Flags, config: Config): Promise<number> {
  const language = languageFrom(flags.tui.lang, process.env);
  const t = createTranslate(language);
  const url = flags.tui.url;
  let embedded: Service | undefined;
  const embedToken = url ? undefined : randomBytes(32).toString('base64url');
  if (embedToken) {
    process.stderr.write(`${t('tui.embedded.starting', { context: currentContext(flags) })}\n`);
    embedded = await startEmbedded(flags, config, embedToken);
  }
  try {
    const { runTerminalUi } = await import('../tui/run.js');
    await usageOnUnknownCluster(
      runTerminalUi({
        baseUrl: url ?? embedded!.url,
        ...(url ? await remoteSession(flags, url) : {}),
        context: url ? new URL(url).host : currentContext(flags),
        language,
        ascii: flags.tui.ascii || process.env.TERM === 'dumb',
        readonly: flags.tui.readonly,
        namespace: flags.tui.allNamespaces ? undefined : (flags.tui.namespace ?? 'default'),
        cluster: flags.tui.cluster,
        embedToken,
      }),
    );
  } finally {
    await embedded?.close();
  }
  return 0;
}
