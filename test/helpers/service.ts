import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parseConfig, readRawConfig } from '../../src/config/load.js';
import type { ConfigInput } from '../../src/config/schema.js';
import { createLogger, type Logger } from '../../src/log.js';
import { startService, type Service } from '../../src/app/service.js';
import type { Clock } from '../../src/clock.js';
import type { AuthMode } from '../../src/cli/flags.js';
import type { RoleName } from '../../src/config/schema.js';
import { clusterKubeconfig, uniqueName } from './cluster.js';
import { tryKubectl } from './kubectl.js';
import { rootDirectory } from './paths.js';

/** The admin password every test service starts with (unless a test passes its own). */
export const testAdminPassword = 'admin-password-for-tests';

export interface TestServiceOptions {
  config?: ConfigInput;
  /** Default false: authentication is on and `adminToken` holds an admin JWT. */
  noAuth?: boolean;
  /** `--admin-password`; default `testAdminPassword`; null starts without it (generated password). */
  adminPassword?: string | null;
  dataDir?: string;
  /** Injected time (ms since the epoch) for token expiry, rate windows and audit timestamps. */
  clock?: Clock;
  /** Receives the once-printed generated admin password (instead of stderr). */
  announce?: (text: string) => void;
  /** Port on 127.0.0.1 (default 0: any free one); SSO tests need the callback URL before the start. */
  port?: number;
  /** `-web`: also serve the built web UI (web/dist). */
  web?: boolean;
  /** The service's logger (default: silent, or TEST_LOG_LEVEL). */
  logger?: Logger;
  /** `--auth-mode`; in token mode (flag or config `auth.mode`) nobody logs in at start and `adminToken` is ''. */
  authMode?: AuthMode;
  /** The cluster to work against (default: the shared test cluster). */
  kubeconfig?: string;
  /**
   * The per-user config file, as `--config`: its document is the base config (`config` replaces
   * its top-level keys, merging `limits` and `kubernetes`) and the API writes changes of config-file MCP servers to it.
   */
  configPath?: string;
  /** The embedded service's per-process token (as `pilothouse tui` starts it); requests then need it (`api` sends it). */
  embedToken?: string;
}

/** MCPServer objects of the tests run node and servers from node_modules by absolute path. */
const testCommandDirs = [dirname(process.execPath), join(rootDirectory, 'node_modules')];

/** Rate limits high enough that tests polling the API never hit them; rate-limit tests set their own. */
const relaxedLimits = { requests_per_minute: 100_000, chat_requests_per_minute: 10_000, login_attempts_per_minute: 10_000 };

export interface ApiResponse<T = any> {
  status: number;
  body: T;
  text: string;
  headers: Headers;
}

export interface TestService extends Service {
  dataDir: string;
  /** The service's own namespace (CRD objects, Lease). */
  namespace: string;
  /** Calls the API over real HTTP; JSON bodies are encoded and parsed. */
  api<T = any>(method: string, path: string, options?: { body?: unknown; token?: string; headers?: Record<string, string> }): Promise<ApiResponse<T>>;
  /** A JWT of the `admin` user, logged in at start ('' under noAuth, token mode or without an admin password); reassign after re-login. */
  adminToken: string;
  /** Logs in over HTTP and returns the token (default: the admin with its password); throws unless 200. */
  login(username?: string, password?: string): Promise<string>;
  /** Creates a local user through the admin API and logs them in. */
  createUser(
    role: RoleName,
    options?: { username?: string; password?: string; roles?: string[] },
  ): Promise<{ username: string; password: string; token: string }>;
}

/** Starts the real service on 127.0.0.1:0 against the shared test cluster (or `kubeconfig`) with a temp data dir. */
export async function startTestService(options: TestServiceOptions = {}): Promise<TestService> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'pilothouse-data-'));
  const adminPassword = options.adminPassword === undefined ? testAdminPassword : options.adminPassword;
  // Each service gets its own Pilothouse namespace (its CRD objects and leader Lease), so
  // services started by parallel test files never reconcile each other's objects.
  const namespace = options.config?.kubernetes?.namespace ?? uniqueName('ph');
  const kubeconfig = options.kubeconfig ?? clusterKubeconfig();
  const fromFile = (options.configPath ? readRawConfig(options.configPath) : {}) as NonNullable<ConfigInput>;
  const config = parseConfig(
    {
      ...fromFile,
      ...options.config,
      limits: { ...relaxedLimits, ...fromFile.limits, ...options.config?.limits },
      kubernetes: { ...fromFile.kubernetes, ...options.config?.kubernetes, namespace },
      mcp: { allowed_command_dirs: testCommandDirs, ...fromFile.mcp, ...options.config?.mcp },
    },
    process.env,
    'test config',
  );
  const service = await startService({
    config,
    logger: options.logger ?? createLogger(process.env.TEST_LOG_LEVEL ?? 'silent'),
    dataDir,
    kubeconfigPath: kubeconfig,
    configPath: options.configPath,
    host: '127.0.0.1',
    port: options.port ?? 0,
    noAuth: options.noAuth ?? false,
    adminPassword: adminPassword ?? undefined,
    clock: options.clock,
    announce: options.announce,
    web: options.web,
    authMode: options.authMode,
    embedToken: options.embedToken,
  });
  const api: TestService['api'] = async (method, path, requestOptions = {}) => {
    const headers: Record<string, string> = { ...(options.embedToken ? { 'X-Pilothouse-Embed-Token': options.embedToken } : {}), ...requestOptions.headers };
    if (requestOptions.token) headers.Authorization = `Bearer ${requestOptions.token}`;
    if (requestOptions.body !== undefined) headers['Content-Type'] ??= 'application/json';
    const body =
      typeof requestOptions.body === 'string' ? requestOptions.body : requestOptions.body === undefined ? undefined : JSON.stringify(requestOptions.body);
    const response = await fetch(service.url + path, { method, headers, body });
    const text = await response.text();
    let parsed: unknown = text;
    if ((response.headers.get('content-type') ?? '').includes('json')) parsed = JSON.parse(text);
    return { status: response.status, body: parsed as never, text, headers: response.headers };
  };
  const login: TestService['login'] = async (username = 'admin', password = adminPassword ?? '') => {
    const response = await api<{ token: string }>('POST', '/api/auth/login', { body: { username, password } });
    if (response.status !== 200) throw new Error(`login of ${username} failed: ${response.status} ${response.text}`);
    return response.body.token;
  };
  const tokenMode = (options.authMode ?? config.auth.mode) === 'token';
  const adminToken = options.noAuth || adminPassword === null || tokenMode ? '' : await login();
  const createUser: TestService['createUser'] = async (role, userOptions = {}) => {
    const username = userOptions.username ?? uniqueName(role);
    const password = userOptions.password ?? `password-of-${username}`;
    const created = await api('POST', '/api/admin/users', {
      token: testService.adminToken,
      body: { username, password, role, roles: userOptions.roles ?? [] },
    });
    if (created.status !== 201) throw new Error(`creating user ${username} failed: ${created.status} ${created.text}`);
    return { username, password, token: await login(username, password) };
  };
  const testService: TestService = {
    ...service,
    dataDir,
    namespace,
    api,
    adminToken,
    login,
    createUser,
    close: async () => {
      await service.close();
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
      if (!options.config?.kubernetes?.namespace) await tryKubectl(kubeconfig, ['delete', 'namespace', namespace, '--wait=false']);
    },
  };
  return testService;
}
