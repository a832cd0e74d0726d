import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import { AppError, isAppError } from '../errors.js';
import type { LlmProvider, LlmToolCall } from '../llm/types.js';
import { AgentStateMachine } from './agent-state.js';
import type { ClusterListing } from './cluster-directory.js';
import type { ChatContext, StoredHistoryEntry, TurnEndReason } from './history-entries.js';
import { messagesFromHistory } from './llm-messages.js';
import { streamModelCall, toolSpecs, uniqueCallIds, type ModelReply } from './model-call.js';
import { cancelled, finalAnswer, firstStop, stepCountIs, type LoopProgress, type StopCondition } from './stop-conditions.js';
import { buildSystemPrompt, type PromptInput } from './system-prompt.js';
import { ToolStep, TurnCancelledError, type ToolStepDeps, type ToolTurn } from './tool-step.js';

/** Everything the loop needs, built once in the composition root. */
export interface AgentLoopDeps extends ToolStepDeps {
  /** The configured model (it may change through PUT /api/settings/llm between turns). */
  llm: { provider(): LlmProvider };
  /** `authorization.max_steps`: model calls per turn. */
  maxSteps: number;
  logger: Logger;
  /** Tool call ids used when a provider's id is missing or taken. */
  newId?: () => string;
  /** The caller's finding counts in one namespace of a cluster (src/problems); absent: the prompt says nothing of them. */
  problemCounts?(request: { principal: ToolTurn['principal']; clusterName?: string; namespace: string }): Promise<Record<string, number>>;
}

/** The caller's settings that shape a turn. */
export interface TurnSettings {
  language: string;
  beginnerMode: boolean;
  autoApproveReadonly: boolean;
}

/** One user message to answer. */
export interface TurnRequest extends Pick<ToolTurn, 'principal' | 'history' | 'emit' | 'signal' | 'auditFields' | 'clusters'> {
  message: string;
  context: ChatContext;
  settings: TurnSettings;
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
    request.emit({ event: 'stream_end', data: { complete, reason: ending.reason } });
    return { complete, reason: ending.reason, states: machine.visited };
  }

  private async loop(turn: AgentTurn): Promise<TurnEndReason> {
    const progress: LoopProgress = { steps: 0, lastToolCalls: 0, cancelled: false };
    for (;;) {
      progress.cancelled = turn.signal.aborted;
      const stop = firstStop(this.stops, progress);
      if (stop === 'cancelled') throw new TurnCancelledError();
      if (stop === 'final_answer') return this.end(turn, 'final_response', 'final_answer');
      if (stop === 'step_cap') return await this.stepCap(turn);
      const calls = await this.askModel(turn);
      progress.steps += 1;
      progress.lastToolCalls = calls.length;
      for (const [index, call] of calls.entries()) await this.toolStep.handle(turn, call, index === 0);
    }
  }

  /** The caller's findings in the chat's namespace (a failure leaves them out of the prompt). */
  private async problemsPrompt(turn: AgentTurn): Promise<PromptInput['problems']> {
    const namespace = turn.context.namespace || 'default';
    const counts = await this.deps.problemCounts?.({ principal: turn.principal, clusterName: turn.context.cluster, namespace }).catch(() => undefined);
    return counts && { namespace, counts };
  }

  /** One model call over the history; the reply (text and tool calls) is appended to it. */
  private async askModel(turn: AgentTurn): Promise<LlmToolCall[]> {
    const entries = await turn.history.entries();
    const definitions = this.deps.tools.list();
    const prompt = buildSystemPrompt({
      username: turn.principal.username,
      role: turn.principal.role,
      context: turn.context,
      tools: definitions.map((definition) => definition.name),
      language: turn.settings.language,
      beginnerMode: turn.settings.beginnerMode,
      clusters: clusterPrompt(turn),
      problems: await this.problemsPrompt(turn),
    });
    const reply: ModelReply = { text: '', toolCalls: [] };
    const onText = (text: string): void => turn.emit({ event: 'chunk', data: { content: text } });
    try {
      await streamModelCall(
        { provider: this.deps.llm.provider(), messages: messagesFromHistory(prompt, entries), tools: toolSpecs(definitions), signal: turn.signal, onText },
        reply,
      );
    } catch (error) {
      if (reply.text) await turn.history.append({ kind: 'assistant', content: reply.text, toolCalls: [] });
      throw error;
    }
    const used = usedCallIds(entries);
    const calls = uniqueCallIds(reply.toolCalls, (id) => used.has(id) || this.deps.approvals.knows(id), this.deps.newId ?? defaultNewId);
    await turn.history.append({ kind: 'assistant', content: reply.text, toolCalls: calls });
    return calls;
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

  private failed(turn: AgentTurn, error: unknown): { reason: TurnEndReason; error?: { code: string; message: string } } {
    turn.machine.fail();
    if (turn.signal.aborted || error instanceof TurnCancelledError) return { reason: 'cancelled' };
    if (!isAppError(error)) this.deps.logger.error({ err: error, session: turn.history.sessionId }, 'chat turn failed');
    const failure = isAppError(error) ? error : new AppError('INTERNAL', 'internal error while answering');
    turn.emit({ event: 'error', data: { error: failure.message, code: failure.code } });
    return { reason: 'error', error: { code: failure.code, message: failure.message } };
  }
}
