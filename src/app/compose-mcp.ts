import { join } from 'node:path';
import type { Logger } from 'pino';
import { AuditLog } from '../audit/audit-log.js';
import type { AuditRecorder } from '../audit/types.js';
import { buildSecurityServices } from './compose-security.js';
import type { Config } from '../config/schema.js';
import { openDatabase, type Db } from '../store/database.js';
import { findBinary } from '../tools/binaries.js';
import { SafetyAnalyzer, safetyOptionsFromConfig } from '../tools/safety/index.js';
import { version } from '../version.js';
import { KubeClients, loadKubeConfig } from '../kube/clients.js';
import { Discovery } from '../kube/discovery.js';
import { PolicyProxyGateway } from '../tools/policy-proxy/gateway.js';
import { PolicyEngine } from '../rbac/policy-engine.js';
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

/**
 * The cluster identity of server-mode calls under `authorization.impersonation`: the mapping of
 * `admin` when writes are allowed, else of `viewer` (fail closed to `system:anonymous`).
 */
export function serverModeIdentity(config: Config): string | undefined {
  const impersonation = config.authorization.impersonation;
  if (!impersonation.enabled) return undefined;
  const role = config.mcp_server.allow_writes ? 'admin' : 'viewer';
  return impersonation.mappings[role] ?? impersonation.mappings.viewer ?? 'system:anonymous';
}

/**
 * The policy proxy gateway of server mode: the service's kubeconfig (loaded at the first call),
 * the server-mode identity, and the same PolicyEngine as the web service (no access grants here).
 */
function serverModeGateway(options: ServerModeOptions): PolicyProxyGateway {
  const { config } = options;
  let kube: KubeClients | undefined;
  const clients = (): KubeClients => {
    const connection = { kubeconfigPath: options.kubeconfigPath ?? config.kubernetes.kubeconfig, context: options.context ?? config.kubernetes.context };
    kube ??= new KubeClients(loadKubeConfig(connection), connection);
    return kube;
  };
  let discovery: Discovery | undefined;
  const policy = new PolicyEngine({
    definitions: config.authorization.roles,
    ownNamespace: config.kubernetes.namespace,
    resourceTypes: () => (discovery ??= new Discovery(clients().forIdentity(undefined).rest)).all(),
    grantCheck: () => false,
  });
  return new PolicyProxyGateway({
    kubeConfigFor: (identity) => clients().forIdentity(identity).kubeConfig,
    identityOf: () => serverModeIdentity(config),
    policy,
  });
}

/** Builds the server mode's dependencies: audit store in the data dir, safety analyzer, kubectl/bash executor. */
export function buildServerModeDeps(options: ServerModeOptions): { deps: ServerModeDeps; database: Db } {
  const { config } = options;
  const database = openDatabase(options.dataDir);
  const identity = config.mcp_server.identity;
  const executor = new ToolExecutor({
    kubectlPath: findBinary('kubectl', config.tools.kubectl),
    cluster: serverModeGateway(options),
    impersonate: serverModeIdentity(config),
    outputLimit: config.tools.output_limit,
    timeoutMs: config.tools.timeout,
    sandboxRoot: join(options.dataDir, 'mcp-sandbox'),
    principal: { username: identity, role: config.mcp_server.allow_writes ? 'admin' : 'viewer', roles: [] },
  });
  const deps: ServerModeDeps = {
    analyzer: new SafetyAnalyzer(safetyOptionsFromConfig(config.authorization.tool_approval, config.tools.files.root)),
    policy: { allowWrites: config.mcp_server.allow_writes, bash: config.mcp_server.bash },
    executor,
    audit: new AuditLog(database),
    identity,
    version,
  };
  return { deps, database };
}

/**
 * Who may use the HTTP transport: the static tokens of `mcp_server.tokens` (`token` from e.g.
 * `${MCP_TOKEN}`, or its `sha256`), and session tokens of the Pilothouse sharing this data dir
 * whose role is at least `user` (`admin` when the server may write or run bash).
 */
export function buildHttpAccess(options: ServerModeOptions, database: Db, audit: AuditRecorder): HttpAccessPolicy {
  const { config } = options;
  const security = buildSecurityServices({ config, database, audit, dataDir: options.dataDir, logger: options.logger, clock: Date.now });
  return {
    tokens: config.mcp_server.tokens.map((entry) => ({
      name: entry.name,
      sha256: entry.sha256 ? Buffer.from(entry.sha256, 'hex') : tokenDigest(entry.token ?? ''),
    })),
    sessions: security.sessions,
    requiredRole: config.mcp_server.allow_writes || config.mcp_server.bash ? 'admin' : 'user',
    extraHosts: config.mcp_server.allowed_hosts,
    extraOrigins: config.mcp_server.allowed_origins,
  };
}
