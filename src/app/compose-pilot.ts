import type { Logger } from 'pino';
import { AgentLoop, type AgentLoopDeps } from '../agent/agent-loop.js';
import type { FocusedFinding } from '../agent/system-prompt.js';
import type { ProblemsReader } from '../tools/builtin/problems-tool.js';
import { ApprovalRegistry, type Approvals } from '../agent/approvals/approvals.js';
import { SharedApprovals } from '../agent/approvals/shared-approvals.js';
import { ChatService } from '../agent/chat-service.js';
import type { Pilot } from '../agent/pilot.js';
import { timerScheduler, type Scheduler } from '../agent/approvals/scheduler.js';
import type { AuditLog } from '../audit/audit-log.js';
import type { Clock } from '../clock.js';
import type { Config } from '../config/schema.js';
import type { HealthService } from '../http/health-service.js';
import { llmUrlPolicy } from '../net/outbound-policies.js';
import { ApiKeyFile, SharedApiKey } from '../settings/api-key-file.js';
import { LlmSettings } from '../settings/llm-settings.js';
import { SettingsSnapshot } from '../settings/settings-snapshot.js';
import { UserSettings } from '../settings/user-settings.js';
import { ChatStore } from '../store/chat-store.js';
import { SettingsStore } from '../store/settings-store.js';
import { ApprovalsStore } from '../store/approvals-store.js';
import { PostgresClient } from '../store/postgres.js';
import type { SqlClient } from '../store/sql-client.js';
import { SafetyAnalyzer, safetyOptionsFromConfig } from '../tools/safety/index.js';
import type { ToolClusterGateway, ToolRegistry } from '../tools/types.js';
import type { Metrics } from '../http/metrics.js';
import type { LivenessSource } from '../auth/sessions/session-streams.js';
import { UsageStore } from '../store/usage-store.js';
import { BudgetGuard } from '../usage/budgets.js';
import { ChatUsageMeter, usageMetrics } from '../usage/chat-usage.js';
import { UsageRecorder } from '../usage/usage-recorder.js';

/** What the pilot is built from (part of the composition root). */
export interface PilotInputs {
  config: Config;
  logger: Logger;
  /** The shared store: settings (and the LLM key with `database.url`). */
  store: SqlClient;
  dataDir: string;
  /** Every served cluster's API server, which the LLM base URL may never name (src/clusters/scope-readers.ts). */
  apiServers: () => readonly string[];
  tools: ToolRegistry;
  audit: AuditLog;
  /** Opens a kubectl or bash call's policy proxy on the cluster it names (ADR 0035; the chat turn says which exist). */
  proxyGateway: ToolClusterGateway;
  clock: Clock;
  health: HealthService;
  /** The findings the problems tool reads (their counts in the chat's namespace go into the system prompt). */
  problems?: ProblemsReader;
  /** Counts LLM requests and tool-call approvals. */
  metrics?: Pick<Metrics, 'approvals' | 'llmRequests' | 'llmErrors' | 'llmTokens' | 'llmCost'>;
  /** Whether a chat turn's principal still holds when one of its calls is about to run (role changes, revocations). */
  sessions?: Pick<LivenessSource, 'liveness'>;
  /** Standing instructions of what a chat is about (per-namespace instructions, issue 37). */
  instructions?: AgentLoopDeps['instructions'];
  /** The GitOps managers of the objects a call waiting for approval names (its card says a manual change is reverted). */
  managedObjects?: AgentLoopDeps['managedObjects'];
}

/** The caller's finding counts in one namespace, from the problems tool's reader. */
function problemCountsOf(reader: ProblemsReader): NonNullable<AgentLoopDeps['problemCounts']> {
  return async (request) => (await reader.read(request)).counts;
}

/** One finding by id, as the caller may see it, from the problems tool's reader. */
function findingOf(reader: ProblemsReader): NonNullable<AgentLoopDeps['finding']> {
  return async ({ principal, clusterName, id }) => {
    const { items } = await reader.read({ principal, clusterName });
    return (items as { id?: string }[]).find((item) => item.id === id) as FocusedFinding | undefined;
  };
}

function countLlmRequest(metrics: PilotInputs['metrics'], provider: string, failed: boolean): void {
  metrics?.llmRequests.inc({ provider });
  if (failed) metrics?.llmErrors.inc({ provider });
}

/**
 * Builds the safety analyzer and the AI pilot (LLM settings, chat and the agent loop, approvals,
 * user settings), and wires the health check's LLM probe. `scheduler` is the approval timer (tests).
 */
export function composePilot(inputs: PilotInputs, scheduler: Scheduler = timerScheduler): { safety: SafetyAnalyzer; pilot: Pilot } {
  const { config } = inputs;
  const safety = new SafetyAnalyzer(safetyOptionsFromConfig(config.authorization.tool_approval, config.tools.files.root));
  const shared = inputs.store.engine === 'postgres';
  const settings = new SettingsSnapshot(new SettingsStore(inputs.store), { logger: inputs.logger, pollMs: shared ? 500 : undefined });
  const llm = new LlmSettings({
    base: config.llm,
    store: settings,
    keyFile: shared ? new SharedApiKey(settings) : new ApiKeyFile(inputs.dataDir),
    urlPolicy: llmUrlPolicy(config, inputs.apiServers),
    providerOptions: { observe: (provider, failed) => countLlmRequest(inputs.metrics, provider, failed) },
  });
  const approvalTimeoutMs = config.authorization.tool_approval.timeout;
  const registry = new ApprovalRegistry(scheduler, approvalTimeoutMs, (outcome) =>
    inputs.metrics?.approvals.inc({ outcome: outcome === 'timeout' ? 'timed_out' : outcome }),
  );
  const store = inputs.store;
  const approvals: Approvals =
    store instanceof PostgresClient
      ? new SharedApprovals(registry, new ApprovalsStore(store, inputs.clock), { connect: (name) => store.dedicated(name) })
      : registry;
  const usage = new UsageRecorder({
    store: new UsageStore(inputs.store),
    prices: config.llm.prices,
    clock: inputs.clock,
    observer: inputs.metrics && usageMetrics(inputs.metrics),
  });
  const chatBudgets = new BudgetGuard({ recorder: usage, budgets: config.llm.budgets, clock: inputs.clock, source: 'chat' });
  const loop = new AgentLoop({
    tools: inputs.tools,
    safety,
    approvals,
    audit: inputs.audit,
    proxyGateway: inputs.proxyGateway,
    sessions: inputs.sessions,
    approvalTimeoutMs,
    llm,
    maxSteps: config.authorization.max_steps,
    logger: inputs.logger,
    instructions: inputs.instructions,
    managedObjects: inputs.managedObjects,
    usage: new ChatUsageMeter(usage, chatBudgets),
    ...(inputs.problems ? { problemCounts: problemCountsOf(inputs.problems), finding: findingOf(inputs.problems) } : {}),
  });
  const chat = new ChatService(new ChatStore(inputs.store, () => new Date(inputs.clock())), loop);
  inputs.health.llmCheck = () => llm.check();
  const userSettings = new UserSettings(settings, config.settings);
  return { safety, pilot: { llm, chat, approvals, userSettings, settings, usage, chatBudgets } };
}
