import { runHealthCommand } from './cli/health-command.js';
import { parseFlags, usage, UsageError, type Flags } from './cli/flags.js';
import { ConfigError, loadConfig } from './config/load.js';
import { createLogger } from './log.js';
import { version } from './version.js';
import { slimKubeConfigLoading } from './kube/kube-config-loader.js';

/** Composition root: parse flags and config, then start the requested mode. */
async function main(argv: string[]): Promise<number> {
  let flags: Flags;
  try {
    flags = parseFlags(argv);
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`pilothouse: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
  if (flags.command === 'help') return (void process.stdout.write(usage), 0);
  if (flags.command === 'version') return (void process.stdout.write(`${version}\n`), 0);
  if (flags.command === 'health') return runHealthCommand(flags.url);
  const config = loadConfig(flags.configPath);
  // The terminal UI owns the terminal: its embedded service logs to a file, never to stderr.
  if (flags.command === 'tui') return (await import('./modes/tui.js')).runTui(flags, config);
  const logger = createLogger(flags.logLevel);
  slimKubeConfigLoading();
  // Modes are imported lazily so `--mcp` and `health` start without loading the web server.
  if (flags.mcp) return (await import('./modes/mcp.js')).runMcp(flags, config, logger);
  return (await import('./modes/serve.js')).runServe(flags, config, logger);
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code !== undefined && code !== 0) process.exit(code);
  },
  (error: unknown) => {
    const message = error instanceof ConfigError || error instanceof Error ? error.message : String(error);
    process.stderr.write(`pilothouse: ${message}\n`);
    process.exit(error instanceof ConfigError || error instanceof UsageError ? 2 : 1);
  },
);
