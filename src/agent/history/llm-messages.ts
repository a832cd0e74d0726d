import type { LlmMessage } from '../../llm/types.js';
import type { HistoryEntry } from './history-entries.js';

/** What the model reads for a tool call that has no result in the history (the turn was cut off). */
export const interruptedResult = 'Cancelled: the turn was interrupted before this command ran; it was not run.';

function resultsById(entries: readonly HistoryEntry[]): Map<string, string> {
  const results = new Map<string, string>();
  for (const entry of entries) if (entry.kind === 'tool_result') results.set(entry.id, entry.result);
  return results;
}

function assistantMessages(entry: Extract<HistoryEntry, { kind: 'assistant' }>, results: Map<string, string>): LlmMessage[] {
  if (entry.toolCalls.length === 0) return [{ role: 'assistant', content: entry.content }];
  const toolMessages: LlmMessage[] = entry.toolCalls.map((call) => ({
    role: 'tool',
    toolCallId: call.id,
    name: call.name,
    content: results.get(call.id) ?? interruptedResult,
  }));
  return [{ role: 'assistant', content: entry.content, toolCalls: entry.toolCalls }, ...toolMessages];
}

/**
 * The model's conversation rebuilt from the history: user and assistant messages in order, each
 * assistant tool call followed at once by its result (a cancelled result when none was recorded),
 * so a session can always be resumed. Requests and decisions are not sent: their outcome is in the result.
 */
export function messagesFromHistory(systemPrompt: string, entries: readonly HistoryEntry[]): LlmMessage[] {
  const results = resultsById(entries);
  const messages: LlmMessage[] = [{ role: 'system', content: systemPrompt }];
  for (const entry of entries) {
    if (entry.kind === 'user') messages.push({ role: 'user', content: entry.content });
    if (entry.kind === 'assistant') messages.push(...assistantMessages(entry, results));
  }
  return messages;
}
