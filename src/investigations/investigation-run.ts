import { randomUUID } from 'node:crypto';
import { AgentLoop, type AgentLoopDeps } from '../agent/agent-loop.js';
import type { ClusterDirectory } from '../agent/cluster-directory.js';
import { SessionHistory, type TurnEndReason } from '../agent/history/history-entries.js';
import type { RoleName } from '../config/schema.js';
import type { Investigation } from '../crds/investigation.js';
import { triggerOf } from '../crds/investigation.js';
import type { LlmProvider } from '../llm/types.js';
import type { Principal } from '../rbac/principal.js';
import type { ChatStore } from '../store/chat-store.js';
import type { Tool, ToolRegistry } from '../tools/types.js';
import { createConcludeTool, type Conclusion, type ConclusionSink } from './conclude-tool.js';
import { investigationMessage, investigationNamespace, investigationRules } from './investigation-prompt.js';
import { InvestigationTools } from './investigation-tools.js';
import { TokenMeter } from './token-meter.js';
import { InvestigationUsageMeter, type UsageSink } from './investigation-usage.js';

/** What a run is built from (src/app/compose-investigations.ts). */
export interface InvestigationRunDeps {
  loop: Omit<AgentLoopDeps, 'tools' | 'llm' | 'maxSteps' | 'newId'>;
  /** The tool registry; the run offers `toolNames` of it that exist, plus `conclude`. */
  registry: Pick<ToolRegistry, 'get'>;
  toolNames: readonly string[];
  /** Tools of Pilothouse's own offered too (the runbook tool). */
  extraTools?: readonly Tool[];
  llm: { provider(): LlmProvider; model(): string };
  chats: Pick<ChatStore, 'createSession' | 'append' | 'entries'>;
  clusters: ClusterDirectory;
  maxSteps: number;
  /** `investigations.identity`. */
  identity: { mapping: RoleName; roles: readonly string[] };
  /** Where the run's model calls are recorded (GET /api/usage, /metrics), as source `investigation`. */
  usage?: UsageSink;
}

/** One run to make. */
export interface InvestigationRunRequest {
  investigation: Investigation;
  /** Runbooks and per-namespace instructions that apply. */
  instructions: readonly string[];
  signal: AbortSignal;
}

/** How a run ended. */
export interface InvestigationRunResult {
  conclusion?: Conclusion;
  reason: TurnEndReason;
  tokens: number;
  session: string;
  model: string;
}

/** The actor of an investigation in audit rows and sessions. */
export function investigationActor(name: string): string {
  return `investigation/${name}`;
}

/**
 * The principal an investigation reads as: the authorizer sees a tool-running role (reads only: every call runs
 * in mode `read`), the cluster sees the impersonation mapping `investigations.identity.mapping` (default the viewer's).
 */
export function investigationPrincipal(name: string, identity: InvestigationRunDeps['identity']): Principal {
  return {
    username: investigationActor(name),
    role: identity.mapping === 'admin' ? 'admin' : 'user',
    roles: [...identity.roles],
    identityRole: identity.mapping,
  };
}

/** Runs the agent loop headless and read-only for one Investigation, until it concludes or hits the step cap. */
export async function runInvestigation(deps: InvestigationRunDeps, request: InvestigationRunRequest): Promise<InvestigationRunResult> {
  const { investigation } = request;
  const name = investigation.metadata.name;
  const sink: ConclusionSink = {};
  const meter = new TokenMeter();
  const tools = new InvestigationTools(deps.registry, deps.toolNames, [...(deps.extraTools ?? []), createConcludeTool(sink)]);
  const usage = deps.usage ? { usage: new InvestigationUsageMeter(deps.usage) } : {};
  const loop = new AgentLoop({ ...deps.loop, ...usage, tools, llm: { provider: () => meter.wrap(deps.llm.provider()) }, maxSteps: deps.maxSteps });
  const session = randomUUID();
  await deps.chats.createSession(session, investigationActor(name), `Investigation ${name}`);
  const outcome = await loop.runTurn({
    principal: investigationPrincipal(name, deps.identity),
    history: new SessionHistory(deps.chats as ChatStore, session),
    emit: () => undefined,
    signal: request.signal,
    auditFields: { user: investigationActor(name), source: 'investigation' },
    clusters: deps.clusters,
    readOnly: { details: { investigation: name, trigger: triggerOf(investigation), ...triggerDetails(investigation) } },
    message: investigationMessage(investigation),
    context: { namespace: investigationNamespace(investigation), cluster: investigation.spec.cluster ?? deps.clusters.home, ...subjectContext(investigation) },
    settings: { language: 'en', beginnerMode: false, autoApproveReadonly: true },
    headless: { instructions: [investigationRules, ...request.instructions], done: () => sink.conclusion !== undefined },
  });
  return { conclusion: sink.conclusion, reason: outcome.reason, tokens: meter.tokens(), session, model: deps.llm.model() };
}

/** The trigger's own details for audit rows: the alert's fingerprint, or the asking user. */
export function triggerDetails(investigation: Investigation): Record<string, string> {
  const alert = investigation.spec.alert;
  if (alert) return { fingerprint: alert.fingerprint, ...(alert.labels.alertname ? { alertname: alert.labels.alertname } : {}) };
  return investigation.spec.requester ? { requester: investigation.spec.requester } : {};
}

function subjectContext(investigation: Investigation): { resource?: string } {
  const subject = investigation.spec.subject;
  return subject ? { resource: `${subject.kind.toLowerCase()}/${subject.name}` } : {};
}
