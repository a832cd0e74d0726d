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
import { KubeClients, loadKubeConfig, type KubeConnectionOptions } from '../kube/clients.js';
import { ClusterSet, type ClusterMember, type ClusterSource } from '../kube/cluster-set.js';
import { Discovery } from '../kube/discovery.js';
import { SharedDiscoveryCache } from '../tools/builtin/kubectl-discovery-cache.js';
import { PolicyProxyGateway } from '../tools/policy-proxy/gateway.js';
import { PolicyEngine } from '../rbac/policy-engine.js';
import { rulesForCluster } from '../rbac/cluster-rules.js';
import type { ToolClusterGateway } from '../tools/types.js';
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

/** How server mode reaches one cluster: its name, its clients (loaded at first use) and its mapping overrides. */
interface ServerModeConnection {
  name: string;
  source: ClusterSource;
  clients(): KubeClients;
  /** `clusters[].impersonation.mappings` (over the global mappings). */
  mappings: Partial<Record<RoleName, string>>;
  /** The kubectl binary (its warm discovery cache of this cluster is built with it). */
  kubectlPath: string;
}

/** One cluster of server mode: its policy proxy gateway, built at the first call that names the cluster. */
interface ServerModeCluster extends ClusterMember {
  gateway(): ToolClusterGateway;
}

/**
 * The policy proxy gateway of server mode on one cluster: the service's kubeconfig for it (loaded at the
 * first call), each caller's mapped cluster identity there (`authorization.impersonation` with the cluster's
 * overrides, as in the web service), and a PolicyEngine of the role rules that hold on it (no access grants here).
 */
function serverModeGateway(config: Config, cluster: ServerModeConnection): PolicyProxyGateway {
  const { clients } = cluster;
  let discovery: Discovery | undefined;
  let identities: RoleIdentityResolver | undefined;
  const policy = new PolicyEngine({
    definitions: rulesForCluster(config.authorization.roles, cluster.name),
    ownNamespace: config.kubernetes.namespace,
    resourceTypes: () => (discovery ??= new Discovery(clients().forIdentity(undefined).rest)).all(),
    grantCheck: () => false,
  });
  return new PolicyProxyGateway({
    kubeConfigFor: (identity) => clients().forIdentity(identity).kubeConfig,
    identityOf: (principal) => (identities ??= new RoleIdentityResolver(config, clients(), '', cluster.mappings)).clusterIdentityOf(principal),
    policy,
    // kubectl's warm discovery of this cluster only, closed with its gateway.
    discovery: new SharedDiscoveryCache({ kubectlPath: cluster.kubectlPath }),
  });
}

function serverModeCluster(config: Config, connection: ServerModeConnection): ServerModeCluster {
  let gateway: PolicyProxyGateway | undefined;
  return {
    name: connection.name,
    source: connection.source,
    gateway: () => (gateway ??= serverModeGateway(config, connection)),
    close: () => Promise.resolve(gateway?.close()),
  };
}

/** Clients loaded at the first call (a cluster that is never named is never contacted). */
function lazyClients(connection: KubeConnectionOptions): () => KubeClients {
  let kube: KubeClients | undefined;
  return () => (kube ??= new KubeClients(loadKubeConfig(connection), connection));
}

/**
 * The clusters of server mode (ADR 0035): the home cluster (`--kubeconfig`, `cluster.name`) and each of
 * `clusters:` in the config. Cluster Secrets are the web service's only: server mode reads no Secrets.
 */
function serverModeClusters(config: Config, home: () => KubeClients, kubectlPath: string): ClusterSet<ServerModeCluster> {
  const clusters = new ClusterSet<ServerModeCluster>(config.cluster.name);
  void clusters.put(serverModeCluster(config, { name: config.cluster.name, source: 'home', clients: home, mappings: {}, kubectlPath }));
  for (const entry of config.clusters) {
    const clients = lazyClients({ kubeconfigPath: entry.kubeconfig, context: entry.context });
    const mappings = entry.impersonation.mappings;
    void clusters.put(serverModeCluster(config, { name: entry.name, source: 'config', clients, mappings, kubectlPath }));
  }
  return clusters;
}

/** Each call's policy proxy on the cluster it names (absent: home); an unknown name is NOT_FOUND with `details.cluster`. */
function serverModeToolGateway(clusters: ClusterSet<ServerModeCluster>): ToolClusterGateway {
  return { open: (request) => clusters.resolve(request.clusterName).gateway().open(request) };
}

/** Builds the server mode's dependencies: audit store in the data dir, safety analyzer, kubectl/bash executor. */
export function buildServerModeDeps(options: ServerModeOptions): ServerMode {
  const { config } = options;
  const database = openDatabase(options.dataDir);
  const clients = lazyClients({
    kubeconfigPath: options.kubeconfigPath ?? config.kubernetes.kubeconfig,
    context: options.context ?? config.kubernetes.context,
  });
  const kubectlPath = findBinary('kubectl', config.tools.kubectl);
  const executor = new ToolExecutor({
    kubectlPath,
    cluster: serverModeToolGateway(serverModeClusters(config, clients, kubectlPath)),
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
    homeCluster: config.cluster.name,
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
