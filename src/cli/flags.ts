import { parseArgs } from 'node:util';
import { homedir } from 'node:os';
import { join } from 'node:path';

export type AuthMode = 'local' | 'token' | 'ldap' | 'oidc';

/** `pilothouse tui` flags (src/tui/; docs/adr/0023-terminal-ui.md). */
export interface TuiFlags {
  /** Remote mode: the Pilothouse to talk to; absent: an embedded Pilothouse on a loopback port. */
  url?: string;
  username?: string;
  tokenFile?: string;
  sso: boolean;
  lang?: 'en' | 'ko' | 'ja' | 'zh';
  namespace?: string;
  /** `--cluster NAME`: the cluster to start on (GET /api/clusters; ADR 0035); absent: the home cluster. */
  cluster?: string;
  allNamespaces: boolean;
  readonly: boolean;
  ascii: boolean;
}

export interface Flags {
  command: 'serve' | 'health' | 'help' | 'version' | 'tui';
  tui: TuiFlags;
  web: boolean;
  mcp: boolean;
  mcpTransport: 'stdio' | 'http';
  port?: number;
  host?: string;
  configPath: string;
  kubeconfig?: string;
  context?: string;
  dataDir: string;
  authMode?: AuthMode;
  adminPassword?: string;
  /** `--admin-password-file PATH` (resolved with the environment variable by resolveAdminPassword, src/cli/admin-password.ts). */
  adminPasswordFile?: string;
  noAuth: boolean;
  /** `--no-auth-allow-remote`: with authentication off, allow a non-loopback `--host`. */
  noAuthAllowRemote: boolean;
  logLevel: string;
  url: string;
}

/** A usage error: printed as one line, exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

const options = {
  web: { type: 'boolean' },
  mcp: { type: 'boolean' },
  'mcp-transport': { type: 'string' },
  port: { type: 'string' },
  host: { type: 'string' },
  config: { type: 'string' },
  kubeconfig: { type: 'string' },
  context: { type: 'string' },
  'data-dir': { type: 'string' },
  'auth-mode': { type: 'string' },
  'admin-password': { type: 'string' },
  'admin-password-file': { type: 'string' },
  'no-auth': { type: 'boolean' },
  'no-auth-allow-remote': { type: 'boolean' },
  'log-level': { type: 'string' },
  url: { type: 'string' },
  username: { type: 'string' },
  'token-file': { type: 'string' },
  sso: { type: 'boolean' },
  lang: { type: 'string' },
  namespace: { type: 'string', short: 'n' },
  cluster: { type: 'string' },
  'all-namespaces': { type: 'boolean', short: 'A' },
  readonly: { type: 'boolean' },
  ascii: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean' },
} as const;

/** The per-user config and data locations (XDG). */
export function defaultPaths(environment: NodeJS.ProcessEnv): { config: string; data: string } {
  const home = environment.HOME ?? homedir();
  const configHome = environment.XDG_CONFIG_HOME ?? join(home, '.config');
  const dataHome = environment.XDG_DATA_HOME ?? join(home, '.local', 'share');
  return { config: join(configHome, 'pilothouse', 'config.yaml'), data: join(dataHome, 'pilothouse') };
}

function parsePort(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const port = Number(text);
  if (!/^\d+$/.test(text) || port > 65535) throw new UsageError(`--port: "${text}" is not a port number (0-65535)`);
  return port;
}

function oneOf<T extends string>(flag: string, value: string | undefined, allowed: readonly T[]): T | undefined {
  if (value === undefined) return undefined;
  if (!allowed.includes(value as T)) throw new UsageError(`${flag}: "${value}" must be one of ${allowed.join(', ')}`);
  return value as T;
}

/** Parses argv (without node and script). `-web` (single dash, as the contract writes it) means `--web`. */
export function parseFlags(argv: string[], environment: NodeJS.ProcessEnv = process.env): Flags {
  const normalized = argv.map((argument) => (argument === '-web' ? '--web' : argument));
  let parsed;
  try {
    parsed = parseArgs({ args: normalized, options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError((error as Error).message.split('\n')[0] ?? 'invalid arguments');
  }
  const { values, positionals } = parsed;
  const paths = defaultPaths(environment);
  return {
    command: commandOf(positionals, values),
    ...modeFlags(values),
    port: parsePort(values.port),
    host: values.host,
    configPath: values.config ?? paths.config,
    kubeconfig: values.kubeconfig,
    context: values.context,
    dataDir: values['data-dir'] ?? paths.data,
    authMode: oneOf('--auth-mode', values['auth-mode'], ['local', 'token', 'ldap', 'oidc'] as const),
    adminPassword: values['admin-password'],
    adminPasswordFile: values['admin-password-file'],
    logLevel: oneOf('--log-level', values['log-level'], ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const) ?? 'info',
    url: values.url ?? 'http://127.0.0.1:8080',
    tui: tuiFlags(values),
  };
}

function tuiFlags(values: ParsedValues): TuiFlags {
  return {
    url: values.url,
    username: values.username,
    tokenFile: values['token-file'],
    sso: values.sso ?? false,
    lang: oneOf('--lang', values.lang, ['en', 'ko', 'ja', 'zh'] as const),
    namespace: values.namespace,
    cluster: values.cluster,
    allNamespaces: values['all-namespaces'] ?? false,
    readonly: values.readonly ?? false,
    ascii: values.ascii ?? false,
  };
}

type ParsedValues = ReturnType<typeof parseArgs<{ options: typeof options; allowPositionals: true; strict: true }>>['values'];

/** The boolean mode switches and the MCP transport. */
function modeFlags(values: ParsedValues): Pick<Flags, 'web' | 'mcp' | 'mcpTransport' | 'noAuth' | 'noAuthAllowRemote'> {
  return {
    web: values.web ?? false,
    mcp: values.mcp ?? false,
    mcpTransport: oneOf('--mcp-transport', values['mcp-transport'], ['stdio', 'http'] as const) ?? 'stdio',
    noAuth: values['no-auth'] ?? false,
    noAuthAllowRemote: values['no-auth-allow-remote'] ?? false,
  };
}

function commandOf(positionals: string[], values: { help?: boolean; version?: boolean }): Flags['command'] {
  if (values.help) return 'help';
  if (values.version) return 'version';
  const [first, ...rest] = positionals;
  if (first === undefined) return 'serve';
  if (first === 'health' && rest.length === 0) return 'health';
  if (first === 'tui' && rest.length === 0) return 'tui';
  throw new UsageError(`unknown command "${positionals.join(' ')}" (commands: health, tui)`);
}

export const usage = `Usage: pilothouse [flags]            run the API (and with -web/--web the web UI)
       pilothouse --mcp [--mcp-transport stdio|http]   MCP server mode
       pilothouse health [--url URL]    check a running instance (exit 0 when healthy)
       pilothouse tui [--url URL [--username NAME | --token-file PATH | --sso]] [--lang en|ko|ja|zh]
                      [--namespace NS | -A] [--cluster NAME] [--readonly] [--ascii]
                                        terminal UI; without --url it starts an embedded Pilothouse
                                        (loopback only, auth off) against the current kubeconfig context

Flags:
  -web, --web              serve the web UI and API
  --port N                 listen port (default 8080)
  --host ADDRESS           listen address (default 127.0.0.1)
  --config PATH            config file (default ~/.config/pilothouse/config.yaml)
  --kubeconfig PATH        kubeconfig file (default: $KUBECONFIG, ~/.kube/config or in-cluster)
  --context NAME           kubeconfig context
  --data-dir DIR           SQLite store and state (default ~/.local/share/pilothouse)
  --auth-mode MODE         local | token | ldap | oidc
  --admin-password P       set the admin password at start (visible to ps: prefer the file or the variable)
  --admin-password-file PATH
                           set the admin password at start from the file's content (e.g. a mounted Secret)
  --no-auth                development only: every request acts as admin "anonymous" (loopback only)
  --no-auth-allow-remote   with --no-auth or auth.mode none, allow a non-loopback --host
  --log-level LEVEL        trace | debug | info | warn | error
  --mcp                    MCP server mode over stdio

Environment:
  PILOTHOUSE_ADMIN_PASSWORD  the admin password when neither flag is given (the file is preferred)

Docs: docs/index.md in the repository (getting started, user guide, operator manual, and the reference:
every config key in docs/reference/configuration.md, every route's permission in docs/reference/permissions.md).
`;
