import type { ManagedObject } from '../../kube/managed-objects.js';
import type { LlmToolCall } from '../../llm/types.js';
import type { CallUsage } from './call-usage.js';
import type { ChatStore } from '../../store/chat-store.js';
import type { CommandClass } from '../../tools/safety/index.js';
import type { AccessNeeded } from '../../tools/types.js';

/** What the user is looking at when they ask (`context` of `POST /api/chat/agentic`, docs/user-guide/ai-pilot.md). */
export interface ChatContext {
  namespace?: string;
  /** `<kind>/<name>` */
  resource?: string;
  /** The chat's cluster (ADR 0035): tool calls go there unless they name another; absent in sessions from before many clusters (home). */
  cluster?: string;
  /** The time range on screen (`1h`, `24h`: back from now), for questions about history (issue 36). */
  range?: string;
  /** The id of a finding (src/problems) the user asks about ("Ask the pilot" on a finding); its evidence goes into the system prompt. */
  finding?: string;
}

/** How a tool call ended; the `status` of the `tool_execution` event. */
export type ToolStatus = 'executed' | 'rejected' | 'timeout' | 'blocked' | 'forbidden' | 'error';

/** How an approval request ended. `cancelled`: the client went away first. */
export type ApprovalOutcome = 'approved' | 'rejected' | 'timeout' | 'cancelled';

/** Why a turn ended. */
export type TurnEndReason = 'final_answer' | 'step_cap' | 'error' | 'cancelled';

/** A tool call as it is put to the user: the `tool_request` history entry and the data of the `tool_request` event. */
export interface ToolRequestFields {
  id: string;
  tool: string;
  command: string;
  type: CommandClass;
  requiresApproval: boolean;
  blocked: boolean;
  warnings: string[];
  /** The cluster a kubectl or bash call targets (ADR 0035); absent for tools that reach no cluster. */
  cluster?: string;
  /** The objects the call names that Argo CD or Flux manages (asked only for a call waiting for approval): a manual change to them will be reverted. */
  managedBy?: ManagedObject[];
}

/**
 * The entries of a session's persisted history (STYLE habit 7): the loop rebuilds the model's
 * conversation from them, and the history API shows them. Tool calls, approval requests,
 * decisions and results are entries like the messages.
 */
export type HistoryEntry =
  | { kind: 'user'; content: string; context: ChatContext }
  | {
      kind: 'assistant';
      content: string;
      toolCalls: LlmToolCall[];
      /** The model call's tokens and cost (absent when the provider reported none, and in older sessions). */
      usage?: CallUsage;
    }
  | ({ kind: 'tool_request' } & ToolRequestFields)
  | { kind: 'decision'; id: string; outcome: ApprovalOutcome; by?: string }
  | {
      kind: 'tool_result';
      id: string;
      tool: string;
      status: ToolStatus;
      result: string;
      /** The access request that would lift the policy's `approval_required` refusals of the call. */
      accessNeeded?: AccessNeeded;
    }
  | { kind: 'turn_end'; reason: TurnEndReason; error?: { code: string; message: string } };

export type HistoryKind = HistoryEntry['kind'];

/** A history entry with its store position and time. */
export type StoredHistoryEntry = HistoryEntry & { entryId: number; createdAt: string };

/** One session's history over the chat store. */
export class SessionHistory {
  constructor(
    private readonly store: ChatStore,
    readonly sessionId: string,
  ) {}

  /** Appends an entry; durable when this resolves. */
  async append(entry: HistoryEntry): Promise<void> {
    const { kind, ...payload } = entry;
    await this.store.append(this.sessionId, kind, payload);
  }

  /** Every entry in order. */
  async entries(): Promise<StoredHistoryEntry[]> {
    return (await this.store.entries(this.sessionId)).map(
      (record) => ({ ...(record.payload as object), kind: record.kind, entryId: record.id, createdAt: record.createdAt }) as StoredHistoryEntry,
    );
  }
}
