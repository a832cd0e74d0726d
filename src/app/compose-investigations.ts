import type { Logger } from 'pino';
import { clusterDirectoryOf } from '../agent/cluster-directory.js';
import type { Pilot } from '../agent/pilot.js';
import type { AuditRecorder } from '../audit/types.js';
import type { Clock } from '../clock.js';
import type { Config } from '../config/schema.js';
import { Controller } from '../controllers/controller.js';
import type { EventRecorder } from '../controllers/events.js';
import { InvestigationReconciler } from '../controllers/investigation-reconciler.js';
import type { ControllerManager } from '../controllers/manager.js';
import { investigationKind, investigationSchema, triggerOf, type Investigation, type InvestigationStatus } from '../crds/investigation.js';
import type { ClusterScope } from '../clusters/scope.js';
import type { Metrics } from '../http/metrics.js';
import { ActionApproval } from '../investigations/action-approval.js';
import { classifyAction } from '../investigations/action-class.js';
import { AlertReceiver } from '../investigations/alertmanager-webhook.js';
import { investigationNamespace } from '../investigations/investigation-prompt.js';
import { investigationActor, runInvestigation, triggerDetails, type InvestigationRunDeps } from '../investigations/investigation-run.js';
import { InvestigationStore } from '../investigations/investigation-store.js';
import type { InvestigationsArea } from '../investigations/investigations-area.js';
import { InvestigationNotifier } from '../investigations/notifications.js';
import { createRunbookTool } from '../investigations/runbook-tool.js';
import type { Runbooks } from '../investigations/runbooks.js';
import { readSecretKey } from '../investigations/secret-values.js';
import { CustomClient } from '../kube/custom-client.js';
import type { ClusterSet } from '../clusters/cluster-set.js';
import type { KubeClients } from '../kube/clients.js';
import { notificationUrlPolicy } from '../net/outbound-policies.js';
import type { Principal } from '../rbac/principal.js';
import { ChatStore } from '../store/chat-store.js';
import type { SqlClient } from '../store/sql-client.js';
import type { SafetyAnalyzer } from '../tools/safety/index.js';
import type { ToolClusterGateway, ToolRegistry } from '../tools/types.js';

/** What the investigations area is built from (part of the composition root). */
export interface InvestigationsComposeInput {
  config: Config;
  logger: Logger;
  namespace: string;
  /** The home cluster's clients (Pilothouse's own objects and Secrets live there). */
  kube: KubeClients;
  clusters: ClusterSet<ClusterScope>;
  /** Every served cluster's API server, which notification URLs may never name (src/clusters/scope-readers.ts). */
  apiServers: () => readonly string[];
  tools: ToolRegistry;
  safety: SafetyAnalyzer;
  pilot: Pick<Pilot, 'llm' | 'approvals' | 'usage'>;
  audit: AuditRecorder;
  proxyGateway: ToolClusterGateway;
  store: SqlClient;
  controllers: ControllerManager;
  events: EventRecorder;
  metrics: Pick<Metrics, 'investigations'>;
  clock: Clock;
  /** Runbooks and per-namespace instructions. */
  runbooks: Runbooks;
}

/** Whether `principal` may list pods in `namespace` (undefined: namespaces) on a cluster: the one policy decision. */
async function mayView(clusters: ClusterSet<ClusterScope>, principal: Principal, cluster: string, namespace: string | undefined): Promise<boolean> {
  const scope = clusters.get(cluster);
  if (!scope) return false;
  const resource = namespace === undefined ? 'namespaces' : 'pods';
  const path = namespace === undefined ? '/api/v1/namespaces' : `/api/v1/namespaces/${namespace}/pods`;
  const attributes = {
    verb: 'list',
    isResourceRequest: true,
    path,
    apiGroup: '',
    apiVersion: 'v1',
    resource,
    subresource: '',
    namespace: namespace ?? '',
    name: '',
    dryRun: false,
  };
  return (await scope.policy.authorize(principal, attributes, 'direct')).allowed;
}

/** The webhook token: `investigations.webhook_token`, else the Secret key (read at most every 30 s). */
function webhookTokenSource(input: InvestigationsComposeInput): () => Promise<string | undefined> {
  const settings = input.config.investigations;
  let cached: { value: string | undefined; at: number } | undefined;
  return async () => {
    if (settings.webhook_token) return settings.webhook_token;
    const reference = settings.webhook_token_secret;
    if (!reference) return undefined;
    if (cached && input.clock() - cached.at < 30_000) return cached.value;
    const value = await readSecretKey(input.kube.forIdentity(undefined).rest, input.namespace, reference).catch(() => undefined);
    cached = { value: value || undefined, at: input.clock() };
    return cached.value;
  };
}

/** After a final phase: the metric, the audit row (the investigation as the actor), the notifications. */
function finishedHook(
  input: InvestigationsComposeInput,
  notifier: InvestigationNotifier,
): (investigation: Investigation, status: InvestigationStatus) => Promise<void> {
  return async (investigation, status) => {
    const cluster = investigation.spec.cluster ?? input.clusters.homeName;
    const trigger = triggerOf(investigation);
    const phase = status.phase ?? 'Failed';
    input.metrics.investigations.inc({ cluster, phase, trigger });
    const reason = status.conditions?.find((condition) => condition.type === phase)?.message;
    input.audit.record({
      user: investigationActor(investigation.metadata.name),
      source: 'investigation',
      action: 'query',
      resource: `investigation/${investigation.metadata.name}`,
      cluster,
      details: {
        investigation: investigation.metadata.name,
        trigger,
        ...triggerDetails(investigation),
        phase,
        tokens: status.tokens ?? 0,
        session: status.session,
        ...(reason ? { reason } : {}),
      },
      decision: phase === 'Skipped' ? 'deny' : 'allow',
      outcome: phase === 'Concluded' ? 'success' : phase.toLowerCase(),
    });
    if (phase === 'Concluded') await notifier.notify(investigation, status);
  };
}

/**
 * Builds the investigations area (issue 37): Investigation objects, runbooks (and the `runbook` tool in the
 * registry, for chats too), the Alertmanager receiver, approvals of suggested actions, notifications, and the
 * leader's Investigation controller that runs the headless read-only agent loop.
 */
export function composeInvestigations(input: InvestigationsComposeInput): InvestigationsArea {
  const { config, logger, namespace, clusters, clock } = input;
  const settings = config.investigations;
  const ownRest = input.kube.forIdentity(undefined).rest;
  const objects = new CustomClient<Investigation>(ownRest, investigationKind, namespace, investigationSchema as never);
  const runbooks = input.runbooks;
  const runbookTool = createRunbookTool(runbooks);
  if (!input.tools.get(runbookTool.definition.name)) input.tools.register(runbookTool);
  const store = new InvestigationStore({
    investigations: objects,
    homeCluster: clusters.homeName,
    mayView: (principal, cluster, ns) => mayView(clusters, principal, cluster, ns),
  });
  const runDeps: InvestigationRunDeps = {
    loop: {
      safety: input.safety,
      approvals: input.pilot.approvals,
      audit: input.audit,
      proxyGateway: input.proxyGateway,
      approvalTimeoutMs: config.authorization.tool_approval.timeout,
      logger,
    },
    registry: input.tools,
    toolNames: settings.tools,
    llm: { provider: () => input.pilot.llm.provider(), model: () => input.pilot.llm.config().model },
    chats: new ChatStore(input.store, () => new Date(clock())),
    clusters: clusterDirectoryOf(clusters),
    maxSteps: settings.max_steps,
    identity: settings.identity,
    usage: input.pilot.usage,
  };
  const notifier = new InvestigationNotifier({
    targets: settings.notifications,
    secretValue: (reference) => readSecretKey(ownRest, namespace, reference),
    urlPolicy: notificationUrlPolicy(config, input.apiServers),
    logger,
    homeCluster: clusters.homeName,
  });
  const reconciler = new InvestigationReconciler({
    investigations: objects,
    run: (request) => runInvestigation(runDeps, request),
    instructions: (investigation) => runbooks.forInvestigation(investigation, investigationNamespace(investigation)),
    classify: (command) => classifyAction(input.safety, command),
    tokensToday: async () => {
      const sums = await input.pilot.usage.usedToday({ source: 'investigation' });
      return sums.inputTokens + sums.outputTokens;
    },
    clock,
    logger,
    events: input.events,
    homeCluster: clusters.homeName,
    limits: { enabled: settings.enabled, concurrency: settings.concurrency, dailyTokenBudget: settings.daily_token_budget, maxSteps: settings.max_steps },
    finished: finishedHook(input, notifier),
  });
  input.controllers.register(new Controller(objects, reconciler, logger, { concurrency: 2, baseDelayMs: 500, maxDelayMs: 60_000 }));
  const approval = new ActionApproval({
    store,
    tools: input.tools,
    safety: input.safety,
    gateway: input.proxyGateway,
    audit: input.audit,
    clock,
  });
  return {
    store,
    receiver: new AlertReceiver({ store, clock, cooldownMs: settings.cooldown }),
    approval,
    webhookToken: webhookTokenSource(input),
    hasCluster: (name) => clusters.has(name),
    homeCluster: clusters.homeName,
  };
}
