import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import { AppError, isAppError } from '../errors.js';
import type { LlmMessage, LlmProvider, LlmToolCall } from '../llm/types.js';
import { AgentStateMachine } from './agent-state.js';
import type { ClusterListing } from './cluster-directory.js';
import type { ChatContext, StoredHistoryEntry, TurnEndReason } from './history/history-entries.js';
import { addCallUsage, recordCallUsage, type CallUsage, type TurnUsageTotals, type UsageMeter } from './history/call-usage.js';
import { messagesFromHistory } from './history/llm-messages.js';
import { fitConversation, type ContextFit } from './context-fit.js';
import { answerCorrections, modelRequest, type ModelRequest } from './prompted-turn.js';
import type { ToolDefinition } from '../tools/types.js';
import { readPromptedCalls } from './prompted-tools.js';
import { resolveToolCalling } from './tool-calling.js';
import type { ToolCallingMode } from '../config/schema.js';
import { streamModelCall, toolSpecs, uniqueCallIds, type ModelReply } from './model-call.js';
import { cancelled, finalAnswer, firstStop, stepCountIs, type LoopProgress, type StopCondition } from './stop-conditions.js';
import { buildSystemPrompt, type FocusedFinding, type PromptInput } from './system-prompt.js';
import { ToolStep, TurnCancelledError, type ToolStepDeps, type ToolTurn } from './tool-step.js';

/** Everything the loop needs, built once in the composition root. */
export interface AgentLoopDeps extends ToolStepDeps {
  /** The configured model and its `tool_calling` mode (both may change through PUT /api/settings/llm between turns). */
  llm: { provider(): LlmProvider; toolCalling?(): ToolCallingMode; contextFit?(): ContextFit };
  /** `authorization.max_steps`: model calls per turn. */
  maxSteps: number;
  logger: Logger;
  /** Tool call ids used when a provider's id is missing or taken. */
  newId?: () => string;
  /** Standing instructions for what a chat is about (a namespace's `pilothouse-instructions` ConfigMap); joined to the system prompt. */
  instructions?: (context: ChatContext) => Promise<readonly string[]>;
  /** Token and cost accounting with the daily budgets (absent: nothing is counted or capped). */
  usage?: UsageMeter;
  /** The caller's finding counts in one namespace of a cluster (src/problems); absent: the prompt says nothing of them. */
  problemCounts?(request: { principal: ToolTurn['principal']; clusterName?: string; namespace: string }): Promise<Record<string, number>>;
  /** One finding by id as the caller may see it (the chat context's `finding`); undefined when it is gone or hidden from them. */
  finding?(request: { principal: ToolTurn['principal']; clusterName?: string; id: string }): Promise<FocusedFinding | undefined>;
}

/** The caller's settings that shape a turn. */
export interface TurnSettings {
  language: string;
  beginnerMode: boolean;
  autoApproveReadonly: boolean;
}

/** One user message to answer. */
export interface TurnRequest extends Pick<ToolTurn, 'principal' | 'history' | 'emit' | 'signal' | 'auditFields' | 'clusters' | 'readOnly'> {
  message: string;
  context: ChatContext;
  settings: TurnSettings;
  /** A headless turn (an investigation): more instructions for the system prompt, and a stop once `done()` holds (the model concluded). */
  headless?: HeadlessTurn;
}

/** What a headless turn adds: instructions after the system prompt and its own stop condition. */
export interface HeadlessTurn {
  instructions: readonly string[];
  done(): boolean;
}

/** How a turn ended; `states` lists the state machine's path (logs, tests). */
export interface TurnOutcome {
  complete: boolean;
  reason: TurnEndReason;
  states: readonly string[];
}

interface AgentTurn extends ToolTurn {
  context: ChatContext;
  settings: TurnSettings;
  headless?: HeadlessTurn;
  /** The tokens and cost of the turn's model calls so far. */
  spent?: TurnUsageTotals;
}

const defaultNewId = (): string => `call_${randomBytes(12).toString('hex')}`;

export function stepCapExplanation(maxSteps: number): string {
  return `\n\nI stopped here: this answer reached the limit of ${maxSteps} model steps (authorization.max_steps) before I finished. Ask me to continue and I will pick up from this point.`;
}

function usedCallIds(entries: readonly StoredHistoryEntry[]): Set<string> {
  return new Set(entries.flatMap((entry) => (entry.kind === 'tool_request' ? [entry.id] : [])));
}

/** The clusters for the prompt (reachability as of now); the chat's one is its context's, else the home cluster. */
function clusterPrompt(turn: AgentTurn): { current: string; items: ClusterListing[] } | undefined {
  const directory = turn.clusters;
  return directory && { current: turn.context.cluster ?? directory.home, items: directory.describe() };
}

/**
 * The agent loop (docs/adr/0006-agent-loop-from-history.md): a turn appends the user message, then asks the model with the
 * registry's tools, handles each tool call in order, and asks again — until a stop condition holds
 * (final answer, step cap, cancellation). It works from the persisted history only, so any
 * session can be resumed by its next message. Never throws: failures end the turn with an
 * `error` event; `stream_end` is always the last event.
 */
export class AgentLoop {
  private readonly toolStep: ToolStep;
  private readonly stops: readonly StopCondition[];

  constructor(private readonly deps: AgentLoopDeps) {
    this.toolStep = new ToolStep(deps);
    this.stops = [cancelled, finalAnswer, stepCountIs(deps.maxSteps)];
  }

  async runTurn(request: TurnRequest): Promise<TurnOutcome> {
    const machine = new AgentStateMachine((from, to, trigger) =>
      this.deps.logger.debug({ from, to, trigger, session: request.history.sessionId }, 'agent state'),
    );
    const turn: AgentTurn = { ...request, machine, autoApproveReadonly: request.settings.autoApproveReadonly };
    machine.fire('user_message');
    let ending: { reason: TurnEndReason; error?: { code: string; message: string } };
    try {
      await request.history.append({ kind: 'user', content: request.message, context: request.context });
      ending = { reason: await this.loop(turn) };
    } catch (error) {
      ending = this.failed(turn, error);
    }
    // The store may be away (PostgreSQL down): the stream still ends; the next turn reads what was stored.
    await request.history
      .append({ kind: 'turn_end', ...ending })
      .catch((error: unknown) => this.deps.logger.warn({ err: error, session: request.history.sessionId }, 'turn end not stored'));
    machine.fire('turn_complete');
    const complete = ending.reason === 'final_answer' || ending.reason === 'step_cap';
    request.emit({ event: 'stream_end', data: { complete, reason: ending.reason, ...(turn.spent ? { usage: turn.spent } : {}) } });
    return { complete, reason: ending.reason, states: machine.visited };
  }

  private async loop(turn: AgentTurn): Promise<TurnEndReason> {
    const progress: LoopProgress = { steps: 0, lastToolCalls: 0, cancelled: false };
    for (;;) {
      progress.cancelled = turn.signal.aborted;
      const stop = firstStop(this.stops, progress);
      if (stop === 'cancelled') throw new TurnCancelledError();
      if (turn.headless?.done()) return this.end(turn, 'final_response', 'final_answer');
      if (stop === 'final_answer') return this.end(turn, 'final_response', 'final_answer');
      if (stop === 'step_cap') return await this.stepCap(turn);
      const { calls, corrected } = await this.askModel(turn);
      progress.steps += 1;
      // A corrected call (prompted mode) keeps the turn going: the model reads the correction and tries again.
      progress.lastToolCalls = calls.length + corrected;
      for (const [index, call] of calls.entries()) await this.toolStep.handle(turn, call, index === 0);
    }
  }

  /** The caller's findings in the chat's namespace (a failure leaves them out of the prompt). */
  private async problemsPrompt(turn: AgentTurn): Promise<PromptInput['problems']> {
    const namespace = turn.context.namespace || 'default';
    const counts = await this.deps.problemCounts?.({ principal: turn.principal, clusterName: turn.context.cluster, namespace }).catch(() => undefined);
    return counts && { namespace, counts };
  }

  /** The finding the chat context names (a failure, like a gone finding, leaves only its id in the prompt). */
  private async focusedFinding(turn: AgentTurn): Promise<FocusedFinding | undefined> {
    const id = turn.context.finding;
    if (!id) return undefined;
    return this.deps.finding?.({ principal: turn.principal, clusterName: turn.context.cluster, id }).catch(() => undefined);
  }

  /** One model call over the history; the reply (text and tool calls) is appended to it. */
  private async askModel(turn: AgentTurn): Promise<{ calls: LlmToolCall[]; corrected: number }> {
    const entries = await turn.history.entries();
    const definitions = this.deps.tools.list();
    // Refused before the model is called: a budget used up by an earlier call of this turn ends it here.
    await this.deps.usage?.checkBudget(turn.principal.username);
    const provider = this.deps.llm.provider();
    const mode = await resolveToolCalling(this.deps.llm.toolCalling?.(), provider);
    const request = modelRequest(mode, await this.conversation(turn, entries, definitions), toolSpecs(definitions));
    const reply = await this.callModel(turn, provider, request);
    const usage = await this.recordUsage(turn, provider, reply);
    const newId = this.deps.newId ?? defaultNewId;
    const prompted = mode === 'prompted' ? readPromptedCalls(reply.text, request.names, newId) : undefined;
    const used = usedCallIds(entries);
    const calls = prompted?.calls ?? uniqueCallIds(reply.toolCalls, (id) => used.has(id) || this.deps.approvals.knows(id), newId);
    await turn.history.append({ kind: 'assistant', content: reply.text, toolCalls: calls, ...(usage ? { usage } : {}) });
    if (!prompted) return { calls, corrected: 0 };
    await answerCorrections(turn, calls, prompted.corrections);
    return { calls: calls.filter((call) => !prompted.corrections.has(call.id)), corrected: prompted.corrections.size };
  }

  /** The history as the model reads it, fitted to its context (long tool results cut, old turns shortened). */
  private async conversation(turn: AgentTurn, entries: readonly StoredHistoryEntry[], definitions: readonly ToolDefinition[]): Promise<LlmMessage[]> {
    const conversation = messagesFromHistory(await this.systemPrompt(turn, definitions), entries);
    const fit = this.deps.llm.contextFit?.();
    return fit ? fitConversation(conversation, fit) : conversation;
  }

  /** The system prompt, the standing instructions of what the chat is about, and a headless run's own instructions. */
  private async systemPrompt(turn: AgentTurn, definitions: readonly ToolDefinition[]): Promise<string> {
    const base = buildSystemPrompt({
      username: turn.principal.username,
      role: turn.principal.role,
      context: turn.context,
      tools: definitions.map((definition) => definition.name),
      language: turn.settings.language,
      beginnerMode: turn.settings.beginnerMode,
      clusters: clusterPrompt(turn),
      problems: await this.problemsPrompt(turn),
      finding: await this.focusedFinding(turn),
    });
    const standing = (await this.deps.instructions?.(turn.context).catch(() => [])) ?? [];
    const prompt = [base, ...standing, ...(turn.headless?.instructions ?? [])].join('\n\n');
    return prompt;
  }

  /** Streams the call to the user; a failure keeps the partial text in the history. */
  private async callModel(turn: AgentTurn, provider: LlmProvider, request: ModelRequest): Promise<ModelReply> {
    const reply: ModelReply = { text: '', toolCalls: [] };
    const onText = (text: string): void => turn.emit({ event: 'chunk', data: { content: text } });
    try {
      await streamModelCall({ provider, messages: request.messages, tools: request.tools, signal: turn.signal, onText }, reply);
    } catch (error) {
      if (reply.text) await turn.history.append({ kind: 'assistant', content: reply.text, toolCalls: [] });
      throw error;
    }
    return reply;
  }

  private async recordUsage(turn: AgentTurn, provider: LlmProvider, reply: ModelReply): Promise<CallUsage | undefined> {
    const origin = { user: turn.principal.username, cluster: turn.context.cluster ?? turn.clusters?.home, sessionId: turn.history.sessionId, provider };
    const usage = await recordCallUsage(this.deps.usage, origin, reply.usage);
    if (usage) turn.spent = addCallUsage(turn.spent, usage);
    return usage;
  }

  private async stepCap(turn: AgentTurn): Promise<TurnEndReason> {
    const explanation = stepCapExplanation(this.deps.maxSteps);
    turn.emit({ event: 'chunk', data: { content: explanation } });
    await turn.history.append({ kind: 'assistant', content: explanation.trim(), toolCalls: [] });
    return this.end(turn, 'step_cap_reached', 'step_cap');
  }

  private end(turn: AgentTurn, trigger: 'final_response' | 'step_cap_reached', reason: TurnEndReason): TurnEndReason {
    turn.machine.fire(trigger);
    return reason;
  }

  /** A model call refused by a used-up budget, in the audit log. */
  private auditRefusal(turn: AgentTurn, failure: AppError): void {
    this.deps.audit.record({
      ...turn.auditFields,
      action: 'query',
      resource: `chat/${turn.history.sessionId}`,
      cluster: turn.context.cluster,
      details: { budget: failure.details.budget, used: failure.details.used, resetsAt: failure.details.resetsAt },
      decision: 'deny',
      outcome: failure.message,
    });
  }

  private failed(turn: AgentTurn, error: unknown): { reason: TurnEndReason; error?: { code: string; message: string } } {
    turn.machine.fail();
    if (turn.signal.aborted || error instanceof TurnCancelledError) return { reason: 'cancelled' };
    if (!isAppError(error)) this.deps.logger.error({ err: error, session: turn.history.sessionId }, 'chat turn failed');
    const failure = isAppError(error) ? error : new AppError('INTERNAL', 'internal error while answering');
    if (failure.code === 'BUDGET_EXCEEDED') this.auditRefusal(turn, failure);
    const details = failure.code === 'BUDGET_EXCEEDED' ? { details: failure.details } : {};
    turn.emit({ event: 'error', data: { error: failure.message, code: failure.code, ...details } });
    return { reason: 'error', error: { code: failure.code, message: failure.message } };
  }
}
