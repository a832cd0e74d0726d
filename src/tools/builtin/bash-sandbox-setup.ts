import type { Logger } from 'pino';
import { BubblewrapSandbox, type BashSandbox } from './bash-sandbox.js';

/** The bash sandbox with kubectl (and helm when installed) on PATH inside. */
export function createBashSandbox(binaries: { kubectlPath: string; helmPath?: string }): BubblewrapSandbox {
  const offered = [{ name: 'kubectl', path: binaries.kubectlPath }];
  if (binaries.helmPath) offered.push({ name: 'helm', path: binaries.helmPath });
  return new BubblewrapSandbox({ binaries: offered });
}

/** Probes the sandbox at start (once; the result is cached) and logs whether the enabled bash tool can run. */
export function probeBashSandboxAtStart(sandbox: BashSandbox, logger: Pick<Logger, 'info' | 'warn'>): void {
  void sandbox.status().then((status) => {
    if (status.available) logger.info({ proc: status.proc }, 'bash tool sandbox (bubblewrap) ready');
    else logger.warn({ reason: status.reason }, 'bash tool disabled: its sandbox cannot run');
  });
}
