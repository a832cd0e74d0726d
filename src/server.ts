import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { AuditLog } from './audit/audit-log.js';
import type { Authenticator } from './auth/authenticator.js';
import type { Config } from './config/schema.js';
import type { AuthMode } from './cli/flags.js';
import type { AppDeps } from './deps.js';
import { createApp } from './http/app.js';
import { bashSandboxCheck, HealthService } from './http/health-service.js';
import { Metrics } from './http/metrics.js';
import type { RouteSpec } from './http/types.js';
import { CacheManager } from './kube/cache-manager.js';
import { KubeClients, loadKubeConfig } from './kube/clients.js';
import { Discovery } from './kube/discovery.js';
import { RoleIdentityResolver } from './rbac/identities.js';
import type { GrantCheck } from './rbac/authorize.js';
import { openDatabase } from './store/database.js';
import { findBinary, findOptionalBinary } from './tools/binaries.js';
import { version } from './version.js';
import { ControllerManager } from './controllers/manager.js';
import { InMemoryToolRegistry } from './tools/registry.js';
import { createBuiltinTools } from './tools/builtin/index.js';
import { createBashSandbox, probeBashSandboxAtStart } from './tools/builtin/bash-sandbox-setup.js';
import { buildMcpServers } from './mcp/mcp-servers.js';
import { buildSecurityServices } from './auth/security-services.js';
import { systemClock, type Clock } from './clock.js';
import { TerminalTickets } from './http/terminal-tickets.js';
import { attachWebSocketUpgrades } from './http/websocket-upgrade.js';
import { withPilot } from './agent/pilot.js';
import { AccessRequests } from './access/access-requests.js';
import { PolicyEngine } from './rbac/policy-engine.js';
import { PolicyProxyGateway } from './tools/policy-proxy/gateway.js';

export interface CoreOptions {
  config: Config;
  logger: Logger;
  dataDir: string;
  kubeconfigPath?: string;
  context?: string;
  /** Injected time (tests); the wall clock by default. */
  clock?: Clock;
  /** The per-user config file (API changes of MCP servers persist there when the CRDs are absent). */
  configPath?: string;
  /** `--auth-mode` and `--no-auth`: decide the effective auth mode (`deps.security.mode`). */
  authMode?: AuthMode;
  noAuth?: boolean;
}

/** Builds the dependencies every mode shares: store, audit, cluster clients, caches, metrics. */
export function buildCoreDeps(options: CoreOptions): AppDeps {
  const { config, logger } = options;
  const database = openDatabase(options.dataDir);
  const clock = options.clock ?? systemClock;
  const audit = new AuditLog(database, () => new Date(clock()));
  const kubeconfigPath = options.kubeconfigPath ?? config.kubernetes.kubeconfig;
  const context = options.context ?? config.kubernetes.context;
  const caches = new CacheManager(logger);
  const metrics = new Metrics(() => caches.sizes());
  const kube = new KubeClients(loadKubeConfig({ kubeconfigPath, context }), { kubeconfigPath, context }, metrics.observeClusterCall);
  const ownClient = kube.forIdentity(undefined);
  const discovery = new Discovery(ownClient.rest);
  const kubectlPath = findBinary('kubectl', config.tools.kubectl);
  const tools = new InMemoryToolRegistry();
  const bashSandbox = createBashSandbox({ kubectlPath, helmPath: findOptionalBinary('helm', config.tools.helm) });
  if (config.tools.bash.enabled) probeBashSandboxAtStart(bashSandbox, logger);
  const health = new HealthService(ownClient.rest);
  health.bashSandboxCheck = bashSandboxCheck(config.tools.bash.enabled, bashSandbox);
  const builtins = createBuiltinTools({
    kubectlPath, outputLimit: config.tools.output_limit, timeoutMs: config.tools.timeout,
    bash: { enabled: config.tools.bash.enabled, sandboxRoot: join(options.dataDir, 'sandboxes'), sandbox: bashSandbox }, files: { root: config.tools.files.root },
  });
  for (const tool of builtins) tools.register(tool);
  const identities = new RoleIdentityResolver(config, kube, kubectlPath);
  const accessRequests = new AccessRequests({ rest: ownClient.rest, namespace: config.kubernetes.namespace, discovery, audit, clock, logger });
  const policy = new PolicyEngine({
    definitions: config.authorization.roles, ownNamespace: config.kubernetes.namespace, resourceTypes: () => discovery.all(), grantCheck: accessRequests.grantCheck,
  });
  // Tools hold no credentials: each kubectl/bash call gets its own policy proxy (src/tools/policy-proxy).
  const toolCluster = new PolicyProxyGateway({ kubeConfigFor: (identity) => kube.forIdentity(identity).kubeConfig, identityOf: (principal) => identities.identityOf(principal), policy });
  const mcp = buildMcpServers({ config, logger, registry: tools, rest: ownClient.rest, namespace: config.kubernetes.namespace, version, configPath: options.configPath });
  return withPilot({
    config,
    logger,
    database,
    audit,
    security: buildSecurityServices({ config, database, audit, dataDir: options.dataDir, logger, clock, authMode: options.authMode, noAuth: options.noAuth }),
    clock,
    kube,
    discovery,
    caches,
    identities,
    metrics,
    health,
    controllers: new ControllerManager(ownClient.rest, logger, {
      namespace: config.kubernetes.namespace,
      leaderElection: config.kubernetes.leader_election,
    }),
    namespace: config.kubernetes.namespace,
    dataDir: options.dataDir,
    terminalTickets: new TerminalTickets(),
    tools,
    mcp,
    accessRequests,
    toolCluster,
    policy,
    version,
  });
}

export interface HttpServerOptions {
  host: string;
  port: number;
  routes: RouteSpec[];
  authenticator: Authenticator;
  grantCheck: GrantCheck;
  extend?: Partial<Parameters<typeof createApp>[2]>;
}

export interface RunningServer {
  server: Server;
  url: string;
  close(): Promise<void>;
}

/** Starts the HTTP server on host:port (port 0 picks a free port). */
export async function startHttpServer(deps: AppDeps, options: HttpServerOptions): Promise<RunningServer> {
  const app = createApp(deps, options.routes, {
    authenticator: options.authenticator,
    grantCheck: options.grantCheck,
    ...options.extend,
  });
  const server = createServer(app.callback());
  attachWebSocketUpgrades(server, app.callback(), deps.terminalTickets, deps.config.server.cors_origins);
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    server,
    url: `http://${host}:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
