import { join } from 'node:path';
import type { Logger } from 'pino';
import { AuditLog } from '../audit/audit-log.js';
import { bearerAuthenticator, buildSecurityServices } from './compose-security.js';
import type { Config, RoleName } from '../config/schema.js';
import { openDatabase, type Db } from '../store/database.js';
import { openSharedStore } from '../store/shared-store.js';
import { findBinary } from '../tools/binaries.js';
import { SafetyAnalyzer, safetyOptionsFromConfig } from '../tools/safety/index.js';
import { version } from '../version.js';
import { KubeClients, loadKubeConfig } from '../kube/clients.js';
import { Discovery } from '../kube/discovery.js';
import { PolicyProxyGateway } from '../tools/policy-proxy/gateway.js';
import { PolicyEngine } from '../rbac/policy-engine.js';
import { RoleIdentityResolver } from '../rbac/identities.js';
import type { Principal } from '../rbac/principal.js';
import { tokenDigest, type HttpAccessPolicy } from '../mcp/server/http-access.js';
import type { ServerModeDeps } from '../mcp/server/pilothouse-server.js';
import { ToolExecutor } from '../mcp/server/tool-executor.js';

export interface ServerModeOptions {
  config: Config;
  dataDir: string;
  kubeconfigPath?: string;
  context?: string;
  logger: Logger;
}

/** What server mode is built into: the tools' dependencies (caller-free), the store, and the cluster clients. */
export interface ServerMode {
  deps: Omit<ServerModeDeps, 'caller'>;
  database: Db;
  audit: AuditLog;
  /** The service's cluster clients, loaded at first use. */
  clients(): KubeClients;
}

/**
 * The role of callers without a token of their own (stdio, static tokens): `admin` when the server
 * may write or run bash, else `user` (whose calls run in the policy's `read` mode: reads and dry runs).
 */
function configuredRole(config: Config): RoleName {
  return config.mcp_server.allow_writes || config.mcp_server.bash ? 'admin' : 'user';
}

/**
 * The principal of stdio mode: the local account that started the process is the caller, and
 * there is no token to tell more, so it is `mcp_server.identity` with {@link configuredRole} and
 * the resource-level roles bound to that role; per-user roles apply only to HTTP callers.
 */
export function stdioPrincipal(config: Config): Principal {
  return { username: config.mcp_server.identity, role: configuredRole(config), roles: [] };
}

/**
 * The policy proxy gateway of server mode: the service's kubeconfig (loaded at the first call),
 * each caller's mapped cluster identity (`authorization.impersonation`, as in the web service),
 * and the same PolicyEngine as the web service (no access grants here).
 */
function serverModeGateway(config: Config, clients: () => KubeClients): PolicyProxyGateway {
  let discovery: Discovery | undefined;
  let identities: RoleIdentityResolver | undefined;
  const policy = new PolicyEngine({
    definitions: config.authorization.roles,
    ownNamespace: config.kubernetes.namespace,
    resourceTypes: () => (discovery ??= new Discovery(clients().forIdentity(undefined).rest)).all(),
    grantCheck: () => false,
  });
  return new PolicyProxyGateway({
    kubeConfigFor: (identity) => clients().forIdentity(identity).kubeConfig,
    identityOf: (principal) => (identities ??= new RoleIdentityResolver(config, clients(), '')).clusterIdentityOf(principal),
    policy,
  });
}

/** Builds the server mode's dependencies: audit store in the data dir, safety analyzer, kubectl/bash executor. */
export function buildServerModeDeps(options: ServerModeOptions): ServerMode {
  const { config } = options;
  const database = openDatabase(options.dataDir);
  let kube: KubeClients | undefined;
  const clients = (): KubeClients => {
    const connection = { kubeconfigPath: options.kubeconfigPath ?? config.kubernetes.kubeconfig, context: options.context ?? config.kubernetes.context };
    kube ??= new KubeClients(loadKubeConfig(connection), connection);
    return kube;
  };
  const executor = new ToolExecutor({
    kubectlPath: findBinary('kubectl', config.tools.kubectl),
    cluster: serverModeGateway(config, clients),
    mode: config.mcp_server.allow_writes ? 'direct' : 'read',
    outputLimit: config.tools.output_limit,
    timeoutMs: config.tools.timeout,
    sandboxRoot: join(options.dataDir, 'mcp-sandbox'),
  });
  const audit = new AuditLog(database);
  const deps = {
    analyzer: new SafetyAnalyzer(safetyOptionsFromConfig(config.authorization.tool_approval, config.tools.files.root)),
    policy: { allowWrites: config.mcp_server.allow_writes, bash: config.mcp_server.bash },
    executor,
    audit,
    version,
  };
  return { deps, database, audit, clients };
}

/**
 * Who may use the HTTP transport, and as whom each caller acts: a bearer token is authenticated
 * exactly as by the web API sharing this data dir (session JWTs with revocation and lock checks,
 * TokenReview in token mode, OIDC ID tokens), and the caller is that person with their role, per-user
 * and resource-level roles; static tokens of `mcp_server.tokens` act as `token:<name>` with the
 * configured role. Callers need role `user` (`admin` when the server may write or run bash).
 */
export async function buildHttpAccess(options: ServerModeOptions, mode: ServerMode): Promise<HttpAccessPolicy> {
  const { config, logger } = options;
  const security = buildSecurityServices({
    config,
    store: openSharedStore(config, mode.database, logger),
    audit: mode.audit,
    dataDir: options.dataDir,
    logger,
    clock: Date.now,
  });
  const authenticator =
    security.mode === 'none'
      ? undefined
      : await bearerAuthenticator({
          audit: mode.audit,
          clock: Date.now,
          config,
          logger,
          security,
          get kube() {
            return mode.clients();
          },
        });
  return {
    tokens: config.mcp_server.tokens.map((entry) => ({
      name: entry.name,
      sha256: entry.sha256 ? Buffer.from(entry.sha256, 'hex') : tokenDigest(entry.token ?? ''),
    })),
    tokenPrincipal: (name) => ({ username: `token:${name}`, role: configuredRole(config), roles: [] }),
    authenticator,
    requiredRole: configuredRole(config),
    extraHosts: config.mcp_server.allowed_hosts,
    extraOrigins: config.mcp_server.allowed_origins,
  };
}
