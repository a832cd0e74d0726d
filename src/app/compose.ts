import { join } from 'node:path';
import type { Logger } from 'pino';
import { AccessRequests } from '../access/access-requests.js';
import { AccessRequestReconciler } from '../controllers/access-request-reconciler.js';
import { AuditLog } from '../audit/audit-log.js';
import { AuditOutbox, AuditView } from '../audit/audit-outbox.js';
import type { SecurityServices } from '../auth/security-services.js';
import { buildSecurityServices } from './compose-security.js';
import type { AuthMode } from '../cli/flags.js';
import { systemClock, type Clock } from '../clock.js';
import type { Config } from '../config/schema.js';
import { Controller } from '../controllers/controller.js';
import { KubeEventRecorder } from '../controllers/events.js';
import { ControllerManager } from '../controllers/manager.js';
import { McpServerReconciler } from '../controllers/mcp-server-reconciler.js';
import { allowedForwardIdentities, PortForwardReconciler, type ForwardTarget } from '../controllers/port-forward-reconciler.js';
import { portForwardKind, portForwardSchema, type PortForward } from '../crds/port-forward.js';
import { bashSandboxCheck, HealthService } from '../http/health-service.js';
import { Metrics } from '../http/metrics.js';
import { TerminalTickets } from '../http/terminal-tickets.js';
import { WebSocketUpgrades } from '../http/pipeline/websocket-upgrade.js';
import { CustomClient } from '../kube/custom-client.js';
import { DrainJobs } from '../kube/nodes/drain-jobs.js';
import { SharedHelmRepositories } from '../helm/shared-repositories.js';
import type { GrantCheck } from '../rbac/authorize.js';
import { openDatabase, type Db } from '../store/database.js';
import { DrainJobsStore } from '../store/drain-jobs-store.js';
import { HelmRepositoriesStore } from '../store/helm-repositories-store.js';
import { SealedTokensStore } from '../store/sealed-tokens-store.js';
import { openSharedStore, type SharedStore } from '../store/shared-store.js';
import { findBinary, findOptionalBinary } from '../tools/binaries.js';
import { createBashSandbox, probeBashSandboxAtStart } from '../tools/builtin/bash-sandbox-setup.js';
import { createBuiltinTools, type ProblemsReader, type PromqlRunner } from '../tools/builtin/index.js';
import { promqlRunner } from '../prometheus/promql-runner.js';
import type { ToolClusterGateway } from '../tools/types.js';
import type { ClusterScope, ClusterScopes } from '../clusters/scope.js';
import { composeClusterScopes } from '../clusters/scope-factory.js';
import {
  apiServerUrls,
  cacheSizes,
  clusterProxyGateway,
  managedObjectsReader,
  problemCounts,
  problemsReader,
  promqlClusterOf,
} from '../clusters/scope-readers.js';
import { configuredProvider } from '../clusters/providers.js';
import { secretsProvider, type SecretsProvider } from '../clusters/secrets-provider.js';
import { InMemoryToolRegistry } from '../tools/registry.js';
import type { McpServers } from '../mcp/mcp-servers.js';
import type { Pilot } from '../agent/pilot.js';
import type { SafetyAnalyzer } from '../tools/safety/index.js';
import { version } from '../version.js';
import { composeMcpServers } from './compose-mcp-servers.js';
import { composePilot } from './compose-pilot.js';
import { composeReports } from './compose-reports.js';
import type { ReportRequests } from '../reports/report-requests.js';
import type { Report } from '../crds/report.js';
import { composeInvestigations } from './compose-investigations.js';
import { Runbooks } from '../investigations/runbooks.js';
import type { RestClient } from '../kube/rest-client.js';
import type { InvestigationsArea } from '../investigations/investigations-area.js';

export interface ComposeOptions {
  config: Config;
  logger: Logger;
  dataDir: string;
  kubeconfigPath?: string;
  context?: string;
  /** Injected time (tests); the wall clock by default. */
  clock?: Clock;
  /** The per-user config file (API changes of MCP servers persist there when the CRDs are absent). */
  configPath?: string;
  /** `--auth-mode` and `--no-auth`: decide the effective auth mode (`security.mode`). */
  authMode?: AuthMode;
  noAuth?: boolean;
}

/**
 * Every service of the web service, built once by {@link composeServices}. Only src/app/ sees this
 * whole set (tests reach it as `service.deps`); each area declares the few fields it uses.
 */
export interface Services {
  config: Config;
  logger: Logger;
  /** This replica's SQLite in the data dir (audit first, and everything when no `database.url` is set). */
  database: Db;
  /** The state replicas share: PostgreSQL with `database.url`, else the same SQLite (ADR 0032). */
  store: SharedStore;
  audit: AuditLog;
  /** What GET /api/audit reads: every replica's rows from PostgreSQL with `database.url`, else `audit`. */
  auditView: AuditView;
  /** Ships this replica's audit rows to PostgreSQL (only with `database.url`). */
  auditOutbox?: AuditOutbox;
  /** Every cluster by name (ADR 0035): the home cluster, `clusters:` and cluster Secrets, each its own scope. */
  clusters: ClusterScopes;
  /** The home cluster's scope (Pilothouse's own objects live there); a request's cluster is its own scope (`scopeOf`). */
  home: ClusterScope;
  /** The `secrets` cluster provider: adds and removes the clusters of labelled Secrets live (absent with `cluster.secrets: false`). */
  clusterSecrets?: SecretsProvider;
  metrics: Metrics;
  health: HealthService;
  /** Runs the CRD reconcilers while this replica leads. */
  controllers: ControllerManager;
  /** The namespace holding Pilothouse's own objects (AccessRequest, PortForward, Report, MCPServer, Lease). */
  namespace: string;
  /** The data directory (SQLite, Helm repository state under `helm/`). */
  dataDir: string;
  /** One-time tickets of the web terminal WebSocket. */
  terminalTickets: TerminalTickets;
  /** Routes WebSocket upgrades through the Koa app (the web terminal). */
  webSockets: WebSocketUpgrades;
  /** The AI's tools: built-ins plus the tools of connected MCP servers (type `mcp`). */
  tools: InMemoryToolRegistry;
  /** External MCP tool servers: client manager (tool calls) and the catalog behind /api/mcp/servers. */
  mcp: McpServers;
  /** Users, sessions and tokens, login, user administration, rate windows (security core). */
  security: SecurityServices;
  /** Milliseconds since the epoch; tests inject a manual clock. */
  clock: Clock;
  /** Command safety analysis (config `authorization.tool_approval`). */
  safety: SafetyAnalyzer;
  /** The AI pilot: LLM settings, chat sessions and the agent loop, approvals, user settings. */
  pilot: Pilot;
  /** Just-in-time access requests and the grant index behind the `approval` entries of the matrix. */
  accessRequests: AccessRequests;
  /** Opens the per-call policy proxy through which the AI's kubectl and bash tools reach the cluster they name. */
  proxyGateway: ToolClusterGateway;
  /** PortForward objects in the Pilothouse namespace (service identity). */
  portForwards: CustomClient<PortForward>;
  /** Background node drains and their progress. */
  drains: DrainJobs;
  /** The chart repositories replicas share (each helm home follows them). */
  helmRepositories: SharedHelmRepositories;
  /** Reports requested by callers (owner-or-admin), generated by the leader's Report controller. */
  reportRequests: ReportRequests;
  /** Report objects in the Pilothouse namespace (service identity); the progress stream follows them. */
  reportObjects: CustomClient<Report>;
  /** Investigations by the AI pilot (issue 37): the Alertmanager receiver, the API's store, approvals of suggested actions. */
  investigations: InvestigationsArea;
  version: string;
}

/** The AI's built-in tools and the health check of the bash sandbox. */
function composeTools(
  options: ComposeOptions,
  kubectlPath: string,
  health: HealthService,
  readers: { promql: PromqlRunner; problems: ProblemsReader },
): InMemoryToolRegistry {
  const { config, logger } = options;
  const tools = new InMemoryToolRegistry();
  const bashSandbox = createBashSandbox({ kubectlPath, helmPath: findOptionalBinary('helm', config.tools.helm) });
  if (config.tools.bash.enabled) probeBashSandboxAtStart(bashSandbox, logger);
  health.bashSandboxCheck = bashSandboxCheck(config.tools.bash.enabled, bashSandbox);
  const builtins = createBuiltinTools({
    kubectlPath,
    outputLimit: config.tools.output_limit,
    timeoutMs: config.tools.timeout,
    bash: { enabled: config.tools.bash.enabled, sandboxRoot: join(options.dataDir, 'sandboxes'), sandbox: bashSandbox },
    files: { root: config.tools.files.root },
    ...readers,
  });
  for (const tool of builtins) tools.register(tool);
  return tools;
}

/**
 * The composition root of the web service: builds every service once, in dependency order
 * (store ← cluster ← policy ← areas ← HTTP pieces), and registers the CRD controllers. The only
 * module that calls service constructors; each area receives just the fields its own interface
 * names. Nothing connects or starts here: src/app/service.ts starts and stops.
 */
export function composeServices(options: ComposeOptions): Services {
  const { config, logger, dataDir } = options;
  const clock = options.clock ?? systemClock;
  const namespace = config.kubernetes.namespace;
  const database = openDatabase(dataDir);
  const store = openSharedStore(config, database, logger);
  // The secrets the service holds are redacted wherever they appear in an audit row (src/redact.ts).
  const audit = new AuditLog(
    database,
    () => new Date(clock()),
    () => [config.llm.api_key, config.ldap.bind_password, config.oidc?.client_secret],
  );
  const auditOutbox =
    store.engine === 'postgres'
      ? new AuditOutbox(audit, store, logger, { retentionDays: config.audit.retention_days, clock: () => new Date(clock()) })
      : undefined;
  const auditView = new AuditView(audit, auditOutbox && { outbox: auditOutbox, store });
  const metrics: Metrics = new Metrics(
    () => cacheSizes(clusters),
    () => problemCounts(clusters),
  );
  const kubectlPath = findBinary('kubectl', config.tools.kubectl);
  const grants: { of?: AccessRequests } = {};
  // Grants are read when a decision is made, after the access requests exist (they need the cluster set).
  const grantCheckFor =
    (cluster: string): GrantCheck =>
    (principal, action) =>
      grants.of !== undefined && grants.of.grantCheckFor(cluster)(principal, action);
  const scopeInputs = { config, logger, dataDir, clock, metrics, kubectlPath, grantCheckFor };
  const scopes = composeClusterScopes(scopeInputs, [configuredProvider(config, options)], 'eager');
  const clusters = scopes.clusters;
  const home = clusters.home;
  const ownRest = home.kube.forIdentity(undefined).rest;
  // Cluster Secrets (ADR 0035) live in the home cluster: the `secrets` provider reads them as the service.
  const reserved = [config.cluster.name, ...config.clusters.map((cluster) => cluster.name)];
  const clusterSecrets = config.cluster.secrets
    ? secretsProvider({ rest: ownRest, namespace, reserved, dataDir, logger: logger.child({ component: 'cluster-secrets' }) })
    : undefined;
  if (clusterSecrets) scopes.engage(clusterSecrets);
  const apiServers = apiServerUrls(clusters);
  const health = new HealthService(ownRest);
  // The AI's promql tool: the cluster its call names, the caller's view enforced there, a `query` audit row.
  const promql = promqlRunner({
    clusterOf: promqlClusterOf(clusters),
    record: (row) => audit.record(row),
    clock,
  });
  const problems = problemsReader(clusters);
  const tools = composeTools(options, kubectlPath, health, { promql, problems });
  const accessRequests = new AccessRequests({
    rest: ownRest,
    namespace,
    discovery: home.discovery,
    clusters: { homeName: clusters.homeName, has: (name) => clusters.has(name), discovery: (name) => clusters.resolve(name).discovery },
    audit,
    clock,
    logger,
  });
  grants.of = accessRequests;
  const proxyGateway = clusterProxyGateway(clusters);
  const mcp = composeMcpServers({ config, logger, registry: tools, rest: ownRest, namespace, version, configPath: options.configPath });
  const security = buildSecurityServices({ config, store, audit, dataDir, logger, clock, authMode: options.authMode, noAuth: options.noAuth });
  // Runbooks and per-namespace instructions (issue 37): read as the service, for chats and investigations.
  // A cluster whose last probe failed is not asked (a frozen cluster would hold every model call).
  const reachableRest = (cluster: string | undefined): RestClient | undefined => {
    const scope = clusters.get(cluster ?? clusters.homeName);
    return scope?.health.current.reachable ? scope.kube.forIdentity(undefined).rest : undefined;
  };
  const runbooks = new Runbooks(ownRest, namespace, reachableRest);
  const { safety, pilot } = composePilot({
    ...{ config, logger, store, dataDir, apiServers, tools, audit, proxyGateway, clock, health, metrics },
    sessions: security.sessions,
    instructions: (context) => runbooks.chatInstructions(context.cluster, context.namespace),
    problems,
    managedObjects: managedObjectsReader(clusters),
  });
  const terminalTickets = new TerminalTickets(new SealedTokensStore(store));
  const portForwards = new CustomClient<PortForward>(ownRest, portForwardKind, namespace, portForwardSchema as never);
  const controllers = new ControllerManager(ownRest, logger, { namespace, leaderElection: config.kubernetes.leader_election, clock, observer: metrics });
  const events = new KubeEventRecorder(ownRest, logger, clock);
  const mcpController = new Controller(mcp.objects, new McpServerReconciler(mcp, events, () => controllers.isLeader), logger);
  // Status changes of servers from MCPServer objects requeue their object.
  mcp.manager.onStatusChange((name) => {
    if (mcp.manager.get(name)?.definition.source !== 'config') mcpController.queue.add(name);
  });
  // Every replica connects to the servers of MCPServer objects (their tools in its chats); the leader writes status.
  controllers.registerEverywhere(mcpController);
  // A forward opens to the cluster its spec names, with that cluster's clients and impersonation mapping.
  const forwardTarget = (name: string | undefined): ForwardTarget | undefined => {
    const scope = clusters.get(name ?? clusters.homeName);
    const impersonation = { enabled: config.authorization.impersonation.enabled, mappings: scope?.identities.mappings() ?? {} };
    return scope && { kube: scope.kube, identities: allowedForwardIdentities(impersonation) };
  };
  const forwarder = new PortForwardReconciler(portForwards, forwardTarget, { bindAddress: config.portforward.bind_address, logger, events });
  controllers.register(new Controller(portForwards, forwarder, logger));
  controllers.register(
    new Controller(accessRequests.store.client, new AccessRequestReconciler(accessRequests.store, clock, events, clusters.homeName), logger),
  );
  health.helmCheck = () => home.helm.health();
  health.historyCheck = async () => {
    const { available, ...rest } = await clusters.home.prometheus.status();
    return { status: available ? 'available' : 'unavailable', ...rest };
  };
  const reports = composeReports({ config, logger, dataDir, namespace, kube: home.kube, clusters, security, controllers, clock });
  const investigations = composeInvestigations({
    ...{
      config,
      logger,
      namespace,
      kube: home.kube,
      clusters,
      apiServers,
      tools,
      safety,
      pilot,
      audit,
      proxyGateway,
      store,
      controllers,
      events,
      metrics,
      clock,
      runbooks,
    },
  });
  return {
    config,
    logger,
    database,
    store,
    audit,
    auditView,
    auditOutbox,
    clusters,
    home,
    clusterSecrets,
    metrics,
    health,
    controllers,
    namespace,
    dataDir,
    terminalTickets,
    tools,
    mcp,
    security,
    clock,
    safety,
    pilot,
    accessRequests,
    proxyGateway,
    version,
    portForwards,
    webSockets: new WebSocketUpgrades(terminalTickets, config.server.cors_origins),
    drains: new DrainJobs(logger, clock, new DrainJobsStore(store)),
    helmRepositories: new SharedHelmRepositories(new HelmRepositoriesStore(store)),
    ...reports,
    investigations,
  };
}
