import { join } from 'node:path';
import type { Logger } from 'pino';
import { AuditLog } from '../audit/audit-log.js';
import { bearerAuthenticator, buildSecurityServices } from './compose-security.js';
import type { Config, RoleName } from '../config/schema.js';
import { openDatabase, type Db } from '../store/database.js';
import { openSharedStore } from '../store/shared-store.js';
import { findBinary } from '../tools/binaries.js';
import { SafetyAnalyzer, safetyOptionsFromConfig } from '../tools/safety/index.js';
import { createProblemsTool, createPromqlTool } from '../tools/builtin/index.js';
import { version } from '../version.js';
import { configuredProvider } from '../clusters/providers.js';
import type { ClusterScopes } from '../clusters/scope.js';
import { composeClusterScopes, unreportedScopeMetrics } from '../clusters/scope-factory.js';
import { clusterProxyGateway, problemsReader, promqlClusterOf } from '../clusters/scope-readers.js';
import { promqlRunner } from '../prometheus/promql-runner.js';
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

/** What server mode is built into: the tools' dependencies (caller-free), the store, and the clusters. */
export interface ServerMode {
  deps: Omit<ServerModeDeps, 'caller'>;
  database: Db;
  audit: AuditLog;
  /** Every cluster by name, each a lazy scope of the one factory (src/clusters/scope-factory.ts). */
  clusters: ClusterScopes;
  /** Registers something opened on top (the HTTP transport's shared store and OIDC), closed by {@link close}. */
  onClose(close: () => Promise<void>): void;
  /** Closes everything server mode opened: what was registered, every cluster scope built, the audit store. */
  close(): Promise<void>;
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
 * The clusters of server mode (ADR 0035): the `configured` provider (the home cluster, `--kubeconfig`/`cluster.name`,
 * and each of `clusters:`) through the one scope factory, lazily: a cluster is built at the first call that names it
 * (its policy engine with the role rules that hold there, its proxy gateway, identities and problems engine), and
 * no access grants apply here. Cluster Secrets are the web service's only: server mode reads no Secrets.
 */
function serverModeClusters(options: ServerModeOptions, kubectlPath: string): ClusterScopes {
  const { config, logger, dataDir } = options;
  const inputs = { config, logger, dataDir, clock: Date.now, metrics: unreportedScopeMetrics, kubectlPath, grantCheckFor: () => () => false };
  return composeClusterScopes(inputs, [configuredProvider(config, options)], 'lazy').clusters;
}

/** Builds the server mode's dependencies: audit store in the data dir, safety analyzer, kubectl/bash executor, the read tools. */
export function buildServerModeDeps(options: ServerModeOptions): ServerMode {
  const { config } = options;
  const database = openDatabase(options.dataDir);
  const kubectlPath = findBinary('kubectl', config.tools.kubectl);
  const clusters = serverModeClusters(options, kubectlPath);
  const executor = new ToolExecutor({
    kubectlPath,
    proxyGateway: clusterProxyGateway(clusters),
    mode: config.mcp_server.allow_writes ? 'direct' : 'read',
    outputLimit: config.tools.output_limit,
    timeoutMs: config.tools.timeout,
    sandboxRoot: join(options.dataDir, 'mcp-sandbox'),
  });
  const audit = new AuditLog(database);
  // The chat's read-only `problems` and `promql` tools, under the caller's view on the cluster a call names.
  const promql = promqlRunner({ clusterOf: promqlClusterOf(clusters), record: (row) => audit.record(row), clock: Date.now });
  const readTools = [createProblemsTool(problemsReader(clusters)), createPromqlTool({ runner: promql })];
  const deps = {
    analyzer: new SafetyAnalyzer(safetyOptionsFromConfig(config.authorization.tool_approval, config.tools.files.root)),
    policy: { allowWrites: config.mcp_server.allow_writes, bash: config.mcp_server.bash },
    executor,
    readTools,
    audit,
    version,
    homeCluster: config.cluster.name,
  };
  const opened: (() => Promise<void>)[] = [];
  return {
    deps,
    database,
    audit,
    clusters,
    onClose: (close) => void opened.push(close),
    close: async () => {
      // What the HTTP transport opened (the shared store, OIDC) first, then every cluster built, then the audit store.
      for (const close of opened.splice(0).reverse()) await close().catch(() => undefined);
      await clusters.closeAll();
      database.close();
    },
  };
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
  const store = openSharedStore(config, mode.database, logger);
  mode.onClose(() => store.close());
  const security = buildSecurityServices({
    config,
    store,
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
          home: mode.clusters.home,
        });
  mode.onClose(async () => security.oidc.close());
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
