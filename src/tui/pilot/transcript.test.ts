import { describe, expect, it } from 'vitest';
import { accessTool, applyEvent, emptyTranscript, fromHistory, waitingTool, withAccessRequest, type Transcript } from './transcript.js';
import { transcriptLines, wrapToWidth } from './transcript-lines.js';
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
        { role: 'user', content: 'Scale web', context: {}, createdAt: '' },
        {
          role: 'assistant',
          content: 'Scaling.',
          toolCalls: [{ id: 'c1', tool: 'kubectl', arguments: {}, command: 'kubectl scale', requiresApproval: true }],
          createdAt: '',
        },
        { role: 'turn_end', reason: 'error', error: { code: 'LLM_ERROR', message: 'gone' }, createdAt: '' },
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

  it('keeps the access request a refused call needs, offers r for it, and shows the request filed', () => {
    const scope = { permission: 'execute_write' as const, namespaces: ['team'], resources: ['configmaps'] };
    const refused = (id: string): PilotEvent => ({ event: 'tool_execution', data: { id, result: 'refused', status: 'error', accessNeeded: scope } });
    const state = play([request('w1', true), refused('w1'), request('w2', true), refused('w2'), request('r1', false)]);
    expect(accessTool(state, undefined)?.id).toBe('w2');
    expect(accessTool(state, 'w1')?.id).toBe('w1');
    expect(accessTool(state, 'r1')?.id).toBe('w2');
    const t = (key: string, values: Record<string, unknown> = {}): string => `${key} ${JSON.stringify(values)}`;
    const options = { width: 200, now: 1_000, timeoutMs: 30_000, expanded: new Set<string>(), t, ascii: false };
    const text = (next: Transcript): string =>
      transcriptLines(next.entries, options)
        .lines.map((line) => line.text)
        .join('\n');
    expect(text(state)).toContain('tui.pilot.accessNeeded {"permission":"execute_write","resources":"configmaps","namespaces":"team"}');
    const filed = withAccessRequest(state, 'w2', { id: 'ar-1', phase: 'Pending' });
    expect(text(filed)).toContain('tui.access.filed {"id":"ar-1","phase":"Pending"}');
    expect(accessTool(filed, undefined)?.id).toBe('w1');
    const stored = fromHistory({
      session: { id: 's', title: '', createdAt: '', updatedAt: '' },
      messages: [
        { role: 'assistant', content: '', toolCalls: [{ id: 'c1', tool: 'kubectl', arguments: {}, status: 'error', accessNeeded: scope }], createdAt: '' },
      ],
    });
    expect(stored.entries[0]).toMatchObject({ accessNeeded: scope });
  });

  it('says on the approval card that a GitOps controller reverts a manual change, also for a stored session', () => {
    const managedBy = [
      {
        object: { kind: 'Deployment', namespace: 'shop', name: 'web' },
        manager: { controller: 'Argo CD' as const, kind: 'Application' as const, name: 'shop' },
        note: 'A manual change to deployment/web -n shop will be reverted by Argo CD Application shop.',
      },
    ];
    const asked: PilotEvent = {
      event: 'tool_request',
      data: {
        tool: 'kubectl',
        command: 'kubectl scale deployment/web -n shop --replicas=3',
        id: 'm1',
        type: 'write',
        requiresApproval: true,
        blocked: false,
        warnings: [],
        managedBy,
      },
    };
    const t = (key: string, values: Record<string, unknown> = {}): string => `${key} ${JSON.stringify(values)}`;
    const options = { width: 200, now: 1_000, timeoutMs: 30_000, expanded: new Set<string>(), t, ascii: false };
    const note = 'tui.pilot.managedBy {"object":"deployment/web -n shop","manager":"Argo CD Application shop"}';
    const drawn = (entries: Transcript['entries']): string[] => transcriptLines(entries, options).lines.map((line) => line.text);
    expect(drawn(play([asked]).entries)).toContain(`  ↺ ${note}`);
    const stored = fromHistory({
      session: { id: 's', title: '', createdAt: '', updatedAt: '' },
      messages: [
        { role: 'assistant', content: '', toolCalls: [{ id: 'm1', tool: 'kubectl', arguments: {}, command: 'kubectl scale', managedBy }], createdAt: '' },
      ],
    });
    expect(drawn(stored.entries)).toContain(`  ↺ ${note}`);
  });

  it('draws the assistant’s Markdown without its markers: bold heading, bullets, code, plain inline text', () => {
    const t = (key: string): string => key;
    const options = { width: 80, now: 0, timeoutMs: 30_000, expanded: new Set<string>(), t, ascii: false };
    const answer = '## Why\n**payments-worker** is *crashing*: see `kubectl logs`.\n\n- OOMKilled\n- exit 137\n\n```\nkubectl get pods\n```';
    const { lines } = transcriptLines([{ kind: 'assistant', text: answer }], options);
    expect(lines.map((line) => line.text)).toEqual([
      'Why',
      '',
      'payments-worker is crashing: see kubectl logs.',
      '',
      '• OOMKilled',
      '• exit 137',
      '',
      '  kubectl get pods',
    ]);
    expect(lines[0]).toMatchObject({ bold: true });
    expect(lines.at(-1)).toMatchObject({ dim: true });
  });
});
