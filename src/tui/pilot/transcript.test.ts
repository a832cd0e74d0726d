import { describe, expect, it } from 'vitest';
import { applyEvent, emptyTranscript, fromHistory, waitingTool, type Transcript } from './transcript.js';
import { wrapToWidth } from './transcript-lines.js';
import type { PilotEvent } from './pilot-types.js';
import stringWidth from 'string-width';

const request = (id: string, requiresApproval: boolean): PilotEvent => ({
  event: 'tool_request',
  data: { tool: 'kubectl', command: `kubectl get pods # ${id}`, id, type: requiresApproval ? 'write' : 'read', requiresApproval, blocked: false, warnings: [] },
});
const play = (events: PilotEvent[]): Transcript =>
  events.reduce<Transcript>((state, event) => applyEvent(state, event, 1_000), { ...emptyTranscript, busy: true });

describe('the AI pilot transcript', () => {
  it('joins streamed chunks into one answer and ends the turn on stream_end', () => {
    const state = play([
      { event: 'session', data: { session_id: 's-1' } },
      { event: 'chunk', data: { content: 'Three ' } },
      { event: 'chunk', data: { content: 'pods.' } },
      { event: 'stream_end', data: { complete: true, reason: 'final_answer' } },
    ]);
    expect(state).toEqual({ sessionId: 's-1', busy: false, entries: [{ kind: 'assistant', text: 'Three pods.' }] });
  });

  it('waits only on calls that need approval and have no decision or result yet, oldest first', () => {
    const state = play([request('read-1', false), request('write-1', true), request('write-2', true)]);
    expect(waitingTool(state)?.id).toBe('write-1');
    const answered = applyEvent(state, { event: 'tool_execution', data: { id: 'write-1', result: 'rejected', status: 'rejected' } }, 2_000);
    expect(waitingTool(answered)?.id).toBe('write-2');
    expect(answered.entries[1]).toMatchObject({ status: 'rejected', requestedAt: 1_000 });
  });

  it('reads a stored session back: text before its tool calls, calls never waiting again', () => {
    const state = fromHistory({
      session: { id: 's-2', title: 'Scale web', createdAt: '', updatedAt: '' },
      messages: [
        { role: 'user', content: 'Scale web' },
        { role: 'assistant', content: 'Scaling.', toolCalls: [{ id: 'c1', tool: 'kubectl', command: 'kubectl scale', requiresApproval: true }] },
        { role: 'turn_end', reason: 'error', error: { code: 'LLM_ERROR', message: 'gone' } },
      ],
    });
    expect(state.entries.map((entry) => entry.kind)).toEqual(['user', 'assistant', 'tool', 'error']);
    expect(state.entries[2]).toMatchObject({ decision: 'cancelled' });
    expect(waitingTool(state)).toBeUndefined();
  });

  it('wraps at spaces by display width and breaks words longer than a line', () => {
    expect(wrapToWidth('one two three', 7)).toEqual(['one two', 'three']);
    expect(wrapToWidth('abcdefghij', 4)).toEqual(['abcd', 'efgh', 'ij']);
    for (const line of wrapToWidth('웹서버 파드가 재시작을 반복합니다 원인을 찾아 줘', 10)) expect(stringWidth(line)).toBeLessThanOrEqual(10);
  });
});
