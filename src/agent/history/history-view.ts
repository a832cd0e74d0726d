import type { ChatContext, StoredHistoryEntry, ToolStatus, TurnEndReason, ApprovalOutcome } from './history-entries.js';
import type { ManagedObject } from '../../kube/managed-objects.js';
import type { CommandClass } from '../../tools/safety/index.js';
import type { CallUsage } from './call-usage.js';
import type { AccessNeeded } from '../../tools/types.js';

/** A tool call as `GET /api/chat/history` shows it: request, decision and result together. */
export interface ToolCallView {
  id: string;
  tool: string;
  arguments: Record<string, unknown>;
  command?: string;
  type?: CommandClass;
  requiresApproval?: boolean;
  blocked?: boolean;
  warnings?: string[];
  /** The cluster a kubectl or bash call targeted. */
  cluster?: string;
  /** The objects the call named that Argo CD or Flux manages. */
  managedBy?: ManagedObject[];
  decision?: ApprovalOutcome;
  decidedBy?: string;
  status?: ToolStatus;
  result?: string;
  /** The access request that would lift the policy's `approval_required` refusals of the call. */
  accessNeeded?: AccessNeeded;
}

/** One message of a session's history view. */
export type MessageView =
  | { role: 'user'; content: string; context: ChatContext; createdAt: string }
  | { role: 'assistant'; content: string; toolCalls: ToolCallView[]; usage?: CallUsage; createdAt: string }
  | { role: 'turn_end'; reason: TurnEndReason; error?: { code: string; message: string }; createdAt: string };

function attach(call: ToolCallView, entry: StoredHistoryEntry): void {
  if (entry.kind === 'tool_request') {
    Object.assign(call, {
      command: entry.command,
      type: entry.type,
      requiresApproval: entry.requiresApproval,
      blocked: entry.blocked,
      warnings: entry.warnings,
      ...(entry.cluster === undefined ? {} : { cluster: entry.cluster }),
      ...(entry.managedBy ? { managedBy: entry.managedBy } : {}),
    });
  } else if (entry.kind === 'decision') {
    Object.assign(call, { decision: entry.outcome, decidedBy: entry.by });
  } else if (entry.kind === 'tool_result') {
    Object.assign(call, { status: entry.status, result: entry.result, ...(entry.accessNeeded ? { accessNeeded: entry.accessNeeded } : {}) });
  }
}

function messageOf(entry: StoredHistoryEntry, calls: Map<string, ToolCallView>): MessageView | undefined {
  if (entry.kind === 'user') return { role: 'user', content: entry.content, context: entry.context, createdAt: entry.createdAt };
  if (entry.kind === 'turn_end') return { role: 'turn_end', reason: entry.reason, error: entry.error, createdAt: entry.createdAt };
  if (entry.kind !== 'assistant') return undefined;
  const toolCalls = entry.toolCalls.map((call) => ({ id: call.id, tool: call.name, arguments: call.arguments }));
  for (const call of toolCalls) calls.set(call.id, call);
  return { role: 'assistant', content: entry.content, toolCalls: toolCalls, ...(entry.usage ? { usage: entry.usage } : {}), createdAt: entry.createdAt };
}

/** The history entries folded into messages, each assistant message carrying its tool calls' outcomes. */
export function historyView(entries: readonly StoredHistoryEntry[]): MessageView[] {
  const calls = new Map<string, ToolCallView>();
  const messages: MessageView[] = [];
  for (const entry of entries) {
    const message = messageOf(entry, calls);
    if (message) messages.push(message);
    const id = 'id' in entry ? entry.id : undefined;
    const call = id === undefined ? undefined : calls.get(id);
    if (call) attach(call, entry);
  }
  return messages;
}
