import type { LlmMessage, LlmToolCall, LlmToolSpec } from '../llm/types.js';
import { promptedToolsSection, toPromptedConversation } from './prompted-tools.js';
import type { ToolTurn } from './tool-step.js';

/** What one model call is sent: native mode offers the tools, prompted mode describes them in the system prompt. */
export interface ModelRequest {
  messages: LlmMessage[];
  tools: LlmToolSpec[];
  /** The tool names the model may call. */
  names: string[];
}

export function modelRequest(mode: 'native' | 'prompted', messages: LlmMessage[], tools: LlmToolSpec[]): ModelRequest {
  const names = tools.map((tool) => tool.name);
  if (mode === 'native') return { messages, tools, names };
  return { messages: toPromptedConversation(messages, promptedToolsSection(tools)), tools: [], names };
}

/** Each corrected call's result (status `error`): stored and sent like a result, never run. */
export async function answerCorrections(
  turn: Pick<ToolTurn, 'history' | 'emit'>,
  calls: readonly LlmToolCall[],
  corrections: ReadonlyMap<string, string>,
): Promise<void> {
  for (const call of calls) {
    const correction = corrections.get(call.id);
    if (correction === undefined) continue;
    await turn.history.append({ kind: 'tool_result', id: call.id, tool: call.name, status: 'error', result: correction });
    turn.emit({ event: 'tool_execution', data: { id: call.id, result: correction, status: 'error' } });
  }
}
