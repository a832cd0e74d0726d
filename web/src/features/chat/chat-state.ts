import type {
  AccessNeeded,
  ChatHistory,
  CommandClass,
  ManagedObject,
  MessageView,
  ToolCallView,
  ToolStatus,
  TurnEndReason,
  TurnUsage,
} from '@pilothouse/wire/types';

/** A tool call's wire fields (the one ToolCallView schema) once its request arrived: the request's own fields are then set. */
type ToolCallFields = Required<Pick<ToolCallView, 'id' | 'tool' | 'command' | 'type' | 'requiresApproval' | 'blocked' | 'warnings'>> &
  Pick<ToolCallView, 'decision' | 'status' | 'result' | 'accessNeeded' | 'cluster' | 'managedBy'>;

/** A tool call card: the request, the user's decision and the result (accessNeeded: "Request access" in place). */
export interface ToolEntry extends ToolCallFields {
  kind: 'tool';
  key: string;
  /** Set while the approve/reject request runs. */
  deciding?: boolean;
  /** When a waiting call is rejected as timed out (ms since the epoch, this browser's clock). */
  expiresAt?: number;
  decisionError?: string;
}

export type ChatEntry =
  | { kind: 'user'; key: string; content: string; context?: { namespace?: string; resource?: string; cluster?: string } }
  | { kind: 'assistant'; key: string; content: string }
  | ToolEntry
  | { kind: 'error'; key: string; error: string; code: string }
  | { kind: 'end'; key: string; reason: TurnEndReason }
  /** The tokens and cost of one answer (every model call of its turn). */
  | { kind: 'usage'; key: string; usage: TurnUsage };

export interface ChatState {
  sessionId?: string;
  entries: ChatEntry[];
  streaming: boolean;
  nextKey: number;
  /** While a stored session loads: the usage of the turn read so far. */
  loadingUsage?: TurnUsage;
}

export type ChatAction =
  | { type: 'send'; message: string; context: { namespace?: string; resource?: string } }
  | { type: 'event'; event: string; data: unknown }
  | { type: 'deciding'; id: string }
  | { type: 'decided'; id: string; approved: boolean; error?: string }
  | { type: 'failed'; error: string; code: string }
  | { type: 'finished' }
  | { type: 'load'; history: ChatHistory }
  | { type: 'reset' };

export const initialChat: ChatState = { entries: [], streaming: false, nextKey: 1 };

type EntryInput = ChatEntry extends infer Entry ? (Entry extends ChatEntry ? Omit<Entry, 'key'> : never) : never;

function push(state: ChatState, entry: EntryInput): ChatState {
  return { ...state, entries: [...state.entries, { ...entry, key: `e${state.nextKey}` } as ChatEntry], nextKey: state.nextKey + 1 };
}

function updateTool(state: ChatState, id: string, change: (entry: ToolEntry) => ToolEntry): ChatState {
  return { ...state, entries: state.entries.map((entry) => (entry.kind === 'tool' && entry.id === id ? change(entry) : entry)) };
}

type Payload = Record<string, unknown>;

/** An event's data as fields (none when it carried no data). */
const payloadOf = (data: unknown): Payload => (data ?? {}) as Payload;
const text = (value: unknown): string => (typeof value === 'string' ? value : '');

function appendChunk(state: ChatState, content: string): ChatState {
  const last = state.entries[state.entries.length - 1];
  if (last?.kind !== 'assistant') return push(state, { kind: 'assistant', content });
  return { ...state, entries: [...state.entries.slice(0, -1), { ...last, content: last.content + content }] };
}

function toolRequest(state: ChatState, data: Payload): ChatState {
  const entry: Omit<ToolEntry, 'key'> = {
    kind: 'tool',
    id: text(data.id),
    tool: text(data.tool),
    command: text(data.command),
    type: (text(data.type) || 'unknown') as CommandClass,
    requiresApproval: data.requiresApproval === true,
    blocked: data.blocked === true,
    warnings: Array.isArray(data.warnings) ? data.warnings.map(String) : [],
    // The cluster a kubectl or bash call runs on (ADR 0035): shown in bold on the card and the approval.
    ...(text(data.cluster) ? { cluster: text(data.cluster) } : {}),
    // Objects Argo CD or Flux manages: the card says a manual change will be reverted.
    ...(Array.isArray(data.managedBy) ? { managedBy: data.managedBy as ManagedObject[] } : {}),
    ...(typeof data.approvalTimeoutSeconds === 'number' ? { expiresAt: Date.now() + data.approvalTimeoutSeconds * 1000 } : {}),
  };
  if (state.entries.some((existing) => existing.kind === 'tool' && existing.id === entry.id))
    return updateTool(state, entry.id, (existing) => ({ ...existing, ...entry }));
  return push(state, entry);
}

/** A well-formed accessNeeded of an event, or undefined. */
function accessNeededOf(value: unknown): AccessNeeded | undefined {
  const scope = value as Partial<AccessNeeded> | undefined;
  const strings = (list: unknown): list is string[] => Array.isArray(list) && list.every((item) => typeof item === 'string');
  if (!scope || (scope.permission !== 'execute_write' && scope.permission !== 'delete')) return undefined;
  if (!strings(scope.namespaces) || !strings(scope.resources)) return undefined;
  return { permission: scope.permission, namespaces: scope.namespaces, resources: scope.resources };
}

function toolExecution(entry: ToolEntry, data: Payload): ToolEntry {
  const accessNeeded = accessNeededOf(data.accessNeeded);
  return { ...entry, result: text(data.result), status: (text(data.status) || 'executed') as ToolStatus, ...(accessNeeded ? { accessNeeded } : {}) };
}

/** A well-formed usage of an event or message, or undefined. */
function usageOf(value: unknown): TurnUsage | undefined {
  const usage = value as Partial<TurnUsage> | undefined;
  const fields = [usage?.inputTokens, usage?.outputTokens, usage?.cachedInputTokens, usage?.cost];
  if (!fields.every((field) => typeof field === 'number')) return undefined;
  return usage as TurnUsage;
}

/** `total` plus one call's usage. */
export function addUsage(total: TurnUsage | undefined, call: TurnUsage): TurnUsage {
  return {
    inputTokens: (total?.inputTokens ?? 0) + call.inputTokens,
    outputTokens: (total?.outputTokens ?? 0) + call.outputTokens,
    cachedInputTokens: (total?.cachedInputTokens ?? 0) + call.cachedInputTokens,
    cost: (total?.cost ?? 0) + call.cost,
  };
}

function streamEnd(state: ChatState, data: Payload): ChatState {
  const usage = usageOf(data.usage);
  return endTurn(usage ? push(state, { kind: 'usage', usage }) : state, data);
}

function endTurn(state: ChatState, data: Payload): ChatState {
  const reason = text(data.reason) as TurnEndReason;
  const ended = { ...state, streaming: false };
  const lastIsError = state.entries[state.entries.length - 1]?.kind === 'error';
  if (!reason || reason === 'final_answer' || (reason === 'error' && lastIsError)) return ended;
  return push(ended, { kind: 'end', reason });
}

/** Applies one SSE event of `POST /api/chat/agentic`. Unknown events are ignored. */
export function applyEvent(state: ChatState, event: string, data: Payload): ChatState {
  switch (event) {
    case 'session':
      return { ...state, sessionId: text(data.session_id) || state.sessionId };
    case 'chunk':
      return appendChunk(state, text(data.content));
    case 'tool_request':
      return toolRequest(state, data);
    case 'tool_execution':
      return updateTool(state, text(data.id), (entry) => toolExecution(entry, data));
    case 'error':
      return push(state, { kind: 'error', error: text(data.error), code: text(data.code) });
    case 'stream_end':
      return streamEnd(state, data);
    default:
      return state;
  }
}

function toolFromView(call: ToolCallView): Omit<ToolEntry, 'key'> {
  return {
    kind: 'tool',
    id: call.id,
    tool: call.tool,
    command: call.command ?? JSON.stringify(call.arguments),
    type: call.type ?? 'unknown',
    requiresApproval: call.requiresApproval ?? false,
    blocked: call.blocked ?? false,
    warnings: call.warnings ?? [],
    decision: call.decision,
    status: call.status,
    result: call.result,
    accessNeeded: call.accessNeeded,
    cluster: call.cluster,
    managedBy: call.managedBy,
  };
}

function addMessage(state: ChatState, message: MessageView): ChatState {
  if (message.role === 'user') return push(state, { kind: 'user', content: message.content, context: message.context });
  if (message.role === 'assistant') {
    const usage = usageOf(message.usage);
    const counted = usage ? { ...state, loadingUsage: addUsage(state.loadingUsage, usage) } : state;
    const withText = message.content ? push(counted, { kind: 'assistant', content: message.content }) : counted;
    return message.toolCalls.reduce((next, call) => push(next, toolFromView(call)), withText);
  }
  return turnEndMessage(state, message);
}

function turnEndMessage(loaded: ChatState, message: Extract<MessageView, { role: 'turn_end' }>): ChatState {
  const state = loaded.loadingUsage ? push({ ...loaded, loadingUsage: undefined }, { kind: 'usage', usage: loaded.loadingUsage }) : loaded;
  if (message.error) return push(state, { kind: 'error', error: message.error.message, code: message.error.code });
  return message.reason === 'final_answer' ? state : push(state, { kind: 'end', reason: message.reason });
}

/** A tool card after the approval request answered: the decision, or the error that stopped it. */
function decided(entry: ToolEntry, action: Extract<ChatAction, { type: 'decided' }>): ToolEntry {
  if (action.error) return { ...entry, deciding: false, decisionError: action.error };
  return { ...entry, deciding: false, decision: action.approved ? 'approved' : 'rejected' };
}

/** Reducer of the chat panel: the live stream, decisions, and loading a stored session. */
export function chatReducer(state: ChatState, action: ChatAction): ChatState {
  switch (action.type) {
    case 'send':
      return push({ ...state, streaming: true }, { kind: 'user', content: action.message, context: action.context });
    case 'event':
      return applyEvent(state, action.event, payloadOf(action.data));
    case 'deciding':
      return updateTool(state, action.id, (entry) => ({ ...entry, deciding: true, decisionError: undefined }));
    case 'decided':
      return updateTool(state, action.id, (entry) => decided(entry, action));
    case 'failed':
      return push({ ...state, streaming: false }, { kind: 'error', error: action.error, code: action.code });
    case 'finished':
      return state.streaming ? { ...state, streaming: false } : state;
    case 'load':
      return action.history.messages.reduce(addMessage, { ...initialChat, sessionId: action.history.session.id });
    case 'reset':
      return initialChat;
  }
}

/** Whether a tool card still waits for the user's decision. */
export function awaitingDecision(entry: ToolEntry, streaming: boolean): boolean {
  return streaming && entry.requiresApproval && !entry.blocked && !entry.decision && !entry.status;
}
