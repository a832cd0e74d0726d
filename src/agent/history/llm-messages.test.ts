import { describe, expect, it } from 'vitest';
import type { HistoryEntry } from './history-entries.js';
import { interruptedResult, messagesFromHistory } from './llm-messages.js';

describe('messages from history', () => {
  it('puts each result right after its call, fills interrupted calls, skips requests and decisions', () => {
    const entries: HistoryEntry[] = [
      { kind: 'user', content: 'hi', context: {} },
      {
        kind: 'assistant',
        content: '',
        toolCalls: [
          { id: 'a', name: 'bash', arguments: { command: 'ls' } },
          { id: 'b', name: 'bash', arguments: { command: 'touch x' } },
        ],
      },
      { kind: 'tool_request', id: 'a', tool: 'bash', command: 'ls', type: 'read', requiresApproval: false, blocked: false, warnings: [] },
      { kind: 'tool_result', id: 'a', tool: 'bash', status: 'executed', result: 'file\n' },
      { kind: 'decision', id: 'b', outcome: 'cancelled' },
      { kind: 'turn_end', reason: 'cancelled' },
      { kind: 'user', content: 'again', context: {} },
    ];
    expect(messagesFromHistory('system text', entries)).toEqual([
      { role: 'system', content: 'system text' },
      { role: 'user', content: 'hi' },
      {
        role: 'assistant',
        content: '',
        toolCalls: [
          { id: 'a', name: 'bash', arguments: { command: 'ls' } },
          { id: 'b', name: 'bash', arguments: { command: 'touch x' } },
        ],
      },
      { role: 'tool', toolCallId: 'a', name: 'bash', content: 'file\n' },
      { role: 'tool', toolCallId: 'b', name: 'bash', content: interruptedResult },
      { role: 'user', content: 'again' },
    ]);
  });
});
