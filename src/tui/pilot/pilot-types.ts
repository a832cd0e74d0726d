/** Wire shapes of the chat API as the terminal UI reads them (src/http/chat-schemas.ts is the server's side). */

export type CommandClass = 'read' | 'write' | 'dangerous' | 'interactive' | 'unknown';
export type ToolStatus = 'executed' | 'rejected' | 'timeout' | 'blocked' | 'forbidden' | 'error';

/** The access request that would lift a tool call's approval_required refusals (empty namespaces: all). */
export interface AccessNeeded {
  permission: 'execute_write' | 'delete';
  namespaces: string[];
  resources: string[];
}

export interface ToolRequestData {
  tool: string;
  command: string;
  id: string;
  type?: CommandClass;
  requiresApproval?: boolean;
  blocked?: boolean;
  warnings?: string[];
}

/** One SSE event of `POST /api/chat/agentic`. */
export type PilotEvent =
  | { event: 'session'; data: { session_id: string } }
  | { event: 'chunk'; data: { content: string } }
  | { event: 'tool_request'; data: ToolRequestData }
  | { event: 'tool_execution'; data: { id: string; result: string; status?: ToolStatus; accessNeeded?: AccessNeeded } }
  | { event: 'error'; data: { error: string; code: string } }
  | { event: 'stream_end'; data: { complete: boolean; reason?: string } };

export interface ChatSessionSummary {
  id: string;
  title: string;
  createdAt: string;
  updatedAt: string;
}

export interface ToolCallView {
  id: string;
  tool: string;
  command?: string;
  type?: CommandClass;
  requiresApproval?: boolean;
  blocked?: boolean;
  warnings?: string[];
  decision?: 'approved' | 'rejected' | 'timeout' | 'cancelled';
  status?: ToolStatus;
  result?: string;
  accessNeeded?: AccessNeeded;
}

export type MessageView =
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string; toolCalls: ToolCallView[] }
  | { role: 'turn_end'; reason: string; error?: { code: string; message: string } };

export interface ChatHistory {
  session: ChatSessionSummary;
  messages: MessageView[];
}
