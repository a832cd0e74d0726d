import type { components } from '@pilothouse/wire/types';

/** Wire shapes of the chat API as the terminal UI reads them: aliases of the generated schemas (src/http/schemas/chat-schemas.ts). */
type Schemas = components['schemas'];

export type CommandClass = Schemas['CommandClass'];
export type ToolStatus = Schemas['ToolStatus'];
/** The access request that would lift a tool call's approval_required refusals (empty namespaces: all). */
export type AccessNeeded = Schemas['AccessNeeded'];
export type ToolRequestData = Schemas['ToolRequestEvent'];

/** One SSE event of `POST /api/chat/agentic`. */
export type PilotEvent =
  | { event: 'session'; data: Schemas['ChatSessionEvent'] }
  | { event: 'chunk'; data: Schemas['ChatChunkEvent'] }
  | { event: 'tool_request'; data: ToolRequestData }
  | { event: 'tool_execution'; data: Schemas['ToolExecutionEvent'] }
  | { event: 'error'; data: Schemas['ChatErrorEvent'] }
  | { event: 'stream_end'; data: Schemas['StreamEndEvent'] };

export type ChatSessionSummary = Schemas['ChatSessionSummary'];
/** The one wire shape of a tool call (request, decision, result), as the history shows it. */
export type ToolCallView = Schemas['ToolCallView'];
/** A tool call's wire fields once its request arrived (the request's own fields are then always set). */
export type ToolCallFields = Required<Pick<ToolCallView, 'id' | 'tool' | 'command' | 'type' | 'requiresApproval' | 'blocked' | 'warnings'>> &
  Pick<ToolCallView, 'decision' | 'status' | 'result' | 'accessNeeded' | 'managedBy'>;
export type MessageView = Schemas['MessageView'];
export type ChatHistory = Schemas['ChatHistory'];
