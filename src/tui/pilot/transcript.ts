import type { ChatHistory, PilotEvent, ToolCallFields, ToolCallView, ToolRequestData } from './pilot-types.js';

/** A tool call of the transcript: its safety report, the user's decision and the folded result. */
export interface ToolEntry extends ToolCallFields {
  kind: 'tool';
  /** When the request arrived (ms since the epoch): the approval countdown starts here. */
  requestedAt: number;
  /** How long it waits for a decision, as the service said on its request (else the pane's default). */
  timeoutMs?: number;
  /** The access request filed for it from the pane (accessNeeded is the scope the policy asked for). */
  accessRequest?: { id: string; phase: string };
  /** The cluster the call targets, when the tool event names one (ADR 0035); the approval prompt shows it. */
  cluster?: string;
}

export type Entry = { kind: 'user'; text: string } | { kind: 'assistant'; text: string } | ToolEntry | { kind: 'error'; code: string; text: string };

export interface Transcript {
  sessionId?: string;
  title?: string;
  entries: Entry[];
  /** A turn is streaming. */
  busy: boolean;
}

export const emptyTranscript: Transcript = { entries: [], busy: false };

function toolEntry(data: ToolRequestData | ToolCallView, requestedAt: number): ToolEntry {
  return {
    kind: 'tool',
    id: data.id,
    tool: data.tool,
    command: data.command ?? data.tool,
    type: data.type ?? 'unknown',
    requiresApproval: data.requiresApproval ?? false,
    blocked: data.blocked ?? false,
    warnings: data.warnings ?? [],
    requestedAt,
    ...clusterOf(data),
    // Objects Argo CD or Flux manages: the card says a manual change will be reverted.
    ...(data.managedBy?.length ? { managedBy: data.managedBy } : {}),
    ...('approvalTimeoutSeconds' in data && typeof data.approvalTimeoutSeconds === 'number' ? { timeoutMs: data.approvalTimeoutSeconds * 1000 } : {}),
  };
}

/** The `cluster` of a tool event (ADR 0035), read whether or not the generated wire types carry it yet. */
function clusterOf(data: object): { cluster?: string } {
  const cluster = (data as { cluster?: unknown }).cluster;
  return typeof cluster === 'string' && cluster ? { cluster } : {};
}

const updateTool = (entries: Entry[], id: string, change: Partial<ToolEntry>): Entry[] =>
  entries.map((entry) => (entry.kind === 'tool' && entry.id === id ? { ...entry, ...change } : entry));

function appendText(entries: Entry[], content: string): Entry[] {
  const last = entries.at(-1);
  if (last?.kind === 'assistant') return [...entries.slice(0, -1), { kind: 'assistant', text: last.text + content }];
  return [...entries, { kind: 'assistant', text: content }];
}

function executed(data: Extract<PilotEvent, { event: 'tool_execution' }>['data']): Partial<ToolEntry> {
  return { status: data.status ?? 'executed', result: data.result, ...(data.accessNeeded ? { accessNeeded: data.accessNeeded } : {}) };
}

/** The transcript after one SSE event of the turn (`now`: when it arrived). */
export function applyEvent(state: Transcript, event: PilotEvent, now: number): Transcript {
  switch (event.event) {
    case 'session':
      return { ...state, sessionId: event.data.session_id };
    case 'chunk':
      return { ...state, entries: appendText(state.entries, event.data.content) };
    case 'tool_request':
      return { ...state, entries: [...state.entries, toolEntry(event.data, now)] };
    case 'tool_execution':
      return { ...state, entries: updateTool(state.entries, event.data.id, executed(event.data)) };
    case 'error':
      return { ...state, entries: [...state.entries, { kind: 'error', code: event.data.code, text: event.data.error }] };
    case 'stream_end':
      return { ...state, busy: false };
  }
}

/** A tool call waiting for the user's y / n (the first one, oldest first). */
export function waitingTool(state: Transcript): ToolEntry | undefined {
  return state.entries.find((entry): entry is ToolEntry => entry.kind === 'tool' && isWaiting(entry));
}

export const isWaiting = (entry: ToolEntry): boolean => entry.requiresApproval && !entry.blocked && !entry.decision && !entry.status;

/** A stored tool call: never waiting any more (a call without a status was cut short with its turn). */
const storedCall = (call: ToolCallView): ToolEntry => ({
  ...toolEntry(call, 0),
  decision: call.decision ?? (call.status ? undefined : 'cancelled'),
  status: call.status,
  result: call.result,
  ...(call.accessNeeded ? { accessNeeded: call.accessNeeded } : {}),
});

/** A stored session as a transcript (chat history). */
export function fromHistory(history: ChatHistory): Transcript {
  const entries: Entry[] = [];
  for (const message of history.messages) {
    if (message.role === 'user') entries.push({ kind: 'user', text: message.content });
    if (message.role === 'assistant') {
      if (message.content) entries.push({ kind: 'assistant', text: message.content });
      for (const call of message.toolCalls) entries.push(storedCall(call));
    }
    if (message.role === 'turn_end' && message.error) entries.push({ kind: 'error', code: message.error.code, text: message.error.message });
  }
  return { sessionId: history.session.id, title: history.session.title, entries, busy: false };
}

/**
 * The tool call `r` files an access request for: the selected one when it needs one, else the
 * newest one that needs one and has none filed yet.
 */
export function accessTool(state: Transcript, selected: string | undefined): ToolEntry | undefined {
  const needing = state.entries.filter((entry): entry is ToolEntry => entry.kind === 'tool' && entry.accessNeeded !== undefined);
  return needing.find((entry) => entry.id === selected) ?? needing.filter((entry) => !entry.accessRequest).at(-1);
}

/** The transcript with an access request filed for tool call `id`. */
export function withAccessRequest(state: Transcript, id: string, request: { id: string; phase: string }): Transcript {
  return { ...state, entries: updateTool(state.entries, id, { accessRequest: request }) };
}
