import type { AccessNeeded } from '../../tools/types.js';
import type { TurnUsageTotals } from './call-usage.js';
import type { ToolRequestFields, ToolStatus, TurnEndReason } from './history-entries.js';

/**
 * The SSE events of `POST /api/chat/agentic` (docs/user-guide/ai-pilot.md: the contract's events plus `session`, `error`,
 * and the extra properties of `tool_request`, `tool_execution` and `stream_end`).
 */
export type AgentEvent =
  | { event: 'session'; data: { session_id: string } }
  | { event: 'chunk'; data: { content: string } }
  | {
      event: 'tool_request';
      data: ToolRequestFields;
    }
  | { event: 'tool_execution'; data: { id: string; result: string; status: ToolStatus; accessNeeded?: AccessNeeded } }
  | { event: 'error'; data: { error: string; code: string; details?: Record<string, unknown> } }
  | { event: 'stream_end'; data: { complete: boolean; reason: TurnEndReason; usage?: TurnUsageTotals } };

/** Where the loop sends its events (the SSE stream); must not throw. */
export type EmitEvent = (event: AgentEvent) => void;
