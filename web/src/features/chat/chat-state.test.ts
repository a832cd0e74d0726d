import { describe, expect, it } from 'vitest';
import { awaitingDecision, chatReducer, initialChat, type ChatAction, type ChatState, type ToolEntry } from './chat-state';
import type { AccessNeeded } from '@pilothouse/wire/types';

const run = (actions: ChatAction[], state: ChatState = initialChat): ChatState => actions.reduce(chatReducer, state);
const event = (name: string, data: unknown): ChatAction => ({ type: 'event', event: name, data });

describe('chatReducer', () => {
  it('keeps the objects a GitOps controller manages on the card (the note that a manual change is reverted)', () => {
    const managedBy = [
      {
        object: { kind: 'Deployment', namespace: 'shop', name: 'web' },
        manager: { controller: 'Flux' as const, kind: 'Kustomization' as const, name: 'apps', namespace: 'flux-system' },
        note: 'A manual change to deployment/web -n shop will be reverted by Flux Kustomization apps (flux-system).',
      },
    ];
    const request = {
      id: 't9',
      tool: 'kubectl',
      command: 'kubectl scale deployment/web -n shop --replicas=3',
      type: 'write',
      requiresApproval: true,
      blocked: false,
      warnings: [],
    };
    const live = run([
      { type: 'send', message: 'scale', context: {} },
      event('session', { session_id: 's9' }),
      event('tool_request', { ...request, managedBy }),
    ]);
    expect(live.entries.find((entry) => entry.kind === 'tool')).toMatchObject({ managedBy });
    expect(run([event('tool_request', request)]).entries.find((entry) => entry.kind === 'tool')).not.toHaveProperty('managedBy');
  });

  it('builds a turn from the stream: text, a tool card waiting for approval, its result, the end', () => {
    const state = run([
      { type: 'send', message: 'scale web', context: { namespace: 'shop' } },
      event('session', { session_id: 's1' }),
      event('chunk', { content: 'Let me ' }),
      event('chunk', { content: 'scale it.' }),
      event('tool_request', {
        id: 't1',
        tool: 'kubectl',
        command: 'kubectl scale deploy web --replicas=3',
        type: 'write',
        requiresApproval: true,
        blocked: false,
        warnings: ['changes state'],
      }),
    ]);
    expect(state.sessionId).toBe('s1');
    expect(state.entries.map((entry) => entry.kind)).toEqual(['user', 'assistant', 'tool']);
    expect(state.entries[1]).toMatchObject({ content: 'Let me scale it.' });
    const card = state.entries[2] as ToolEntry;
    expect(card).toMatchObject({ type: 'write', requiresApproval: true, warnings: ['changes state'] });
    expect(awaitingDecision(card, state.streaming)).toBe(true);

    const decided = run(
      [
        { type: 'decided', id: 't1', approved: true },
        event('tool_execution', { id: 't1', result: 'scaled', status: 'executed' }),
        event('chunk', { content: 'Done.' }),
        event('stream_end', { complete: true, reason: 'final_answer' }),
      ],
      state,
    );
    const finished = decided.entries[2] as ToolEntry;
    expect(finished).toMatchObject({ decision: 'approved', result: 'scaled', status: 'executed' });
    expect(decided.entries[3]).toMatchObject({ kind: 'assistant', content: 'Done.' });
    expect(decided.streaming).toBe(false);
    expect(awaitingDecision(finished, decided.streaming)).toBe(false);
  });

  it('shows errors and abnormal ends once', () => {
    const state = run([
      { type: 'send', message: 'hi', context: {} },
      event('error', { error: 'model down', code: 'LLM_ERROR' }),
      event('stream_end', { complete: false, reason: 'error' }),
    ]);
    expect(state.entries.map((entry) => entry.kind)).toEqual(['user', 'error']);
    const capped = run([{ type: 'send', message: 'hi', context: {} }, event('stream_end', { complete: false, reason: 'step_cap' })]);
    expect(capped.entries.map((entry) => entry.kind)).toEqual(['user', 'end']);
  });

  it('loads a stored session as entries', () => {
    const state = chatReducer(initialChat, {
      type: 'load',
      history: {
        session: { id: 's9', title: 'pods', createdAt: '', updatedAt: '' },
        messages: [
          { role: 'user', content: 'list pods', context: {}, createdAt: '' },
          {
            role: 'assistant',
            content: '',
            toolCalls: [
              { id: 'c1', tool: 'kubectl', arguments: { command: 'get pods' }, command: 'kubectl get pods', type: 'read', status: 'executed', result: 'web-1' },
            ],
            createdAt: '',
          },
          { role: 'assistant', content: 'One pod.', toolCalls: [], createdAt: '' },
          { role: 'turn_end', reason: 'final_answer', createdAt: '' },
        ],
      },
    });
    expect(state.sessionId).toBe('s9');
    expect(state.entries.map((entry) => entry.kind)).toEqual(['user', 'tool', 'assistant']);
    expect(state.entries[1]).toMatchObject({ command: 'kubectl get pods', result: 'web-1' });
  });

  it('keeps the access request a refused call needs, from the stream and from the history', () => {
    const scope: AccessNeeded = { permission: 'execute_write', namespaces: ['team'], resources: ['configmaps'] };
    const state = run([
      { type: 'send', message: 'make it', context: {} },
      event('tool_request', {
        id: 't1',
        tool: 'kubectl',
        command: 'create configmap x -n team',
        type: 'write',
        requiresApproval: true,
        blocked: false,
        warnings: [],
      }),
      { type: 'decided', id: 't1', approved: true },
      event('tool_execution', { id: 't1', result: 'Forbidden', status: 'error', accessNeeded: scope }),
      event('tool_request', { id: 't2', tool: 'kubectl', command: 'get pods', type: 'read', requiresApproval: false, blocked: false, warnings: [] }),
      event('tool_execution', { id: 't2', result: 'x', status: 'executed', accessNeeded: { permission: 'sudo', namespaces: [], resources: [] } }),
    ]);
    expect(state.entries[1]).toMatchObject({ id: 't1', accessNeeded: scope });
    expect(state.entries[2]).not.toHaveProperty('accessNeeded');
    const loaded = chatReducer(initialChat, {
      type: 'load',
      history: {
        session: { id: 's1', title: 't', createdAt: '', updatedAt: '' },
        messages: [
          { role: 'assistant', content: '', toolCalls: [{ id: 't1', tool: 'kubectl', arguments: {}, status: 'error', accessNeeded: scope }], createdAt: '' },
        ],
      },
    });
    expect(loaded.entries[0]).toMatchObject({ accessNeeded: scope });
  });

  it('keeps the cluster a call runs on, from the stream (the approval card) and from the history', () => {
    const state = run([
      { type: 'send', message: 'restart web on prod', context: {} },
      event('tool_request', { id: 't1', tool: 'kubectl', command: 'rollout restart deploy web', type: 'write', requiresApproval: true, cluster: 'prod' }),
      event('tool_request', { id: 't2', tool: 'read_file', command: 'read_file notes.md', type: 'read', requiresApproval: false }),
    ]);
    const card = state.entries[1] as ToolEntry;
    expect(card).toMatchObject({ id: 't1', cluster: 'prod' });
    expect(awaitingDecision(card, state.streaming)).toBe(true);
    expect(state.entries[2]).not.toHaveProperty('cluster');
    const loaded = chatReducer(initialChat, {
      type: 'load',
      history: {
        session: { id: 's1', title: 't', createdAt: '', updatedAt: '' },
        messages: [{ role: 'assistant', content: '', toolCalls: [{ id: 't1', tool: 'kubectl', arguments: {}, cluster: 'staging' }], createdAt: '' }],
      },
    });
    expect(loaded.entries[0]).toMatchObject({ cluster: 'staging' });
  });

  it('shows the tokens and cost of an answer: from stream_end live, summed over its model calls when a session loads', () => {
    const usage = { inputTokens: 1_200, outputTokens: 30, cachedInputTokens: 1_000, cost: 0.0021 };
    const live = run([
      { type: 'send', message: 'hi', context: {} },
      event('chunk', { content: 'Hello' }),
      event('stream_end', { complete: true, reason: 'final_answer', usage }),
    ]);
    expect(live.entries.map((entry) => entry.kind)).toEqual(['user', 'assistant', 'usage']);
    expect(live.entries[2]).toMatchObject({ usage });
    const call = (inputTokens: number, cost: number) => ({ provider: 'anthropic', model: 'claude', inputTokens, outputTokens: 10, cachedInputTokens: 0, cost });
    const loaded = run([
      {
        type: 'load',
        history: {
          session: { id: 's1', title: 'hi', createdAt: '', updatedAt: '' },
          messages: [
            { role: 'user', content: 'hi', context: {}, createdAt: '' },
            { role: 'assistant', content: '', toolCalls: [], usage: call(100, 0.5), createdAt: '' },
            { role: 'assistant', content: 'done', toolCalls: [], usage: call(200, 0.25), createdAt: '' },
            { role: 'turn_end', reason: 'final_answer', createdAt: '' },
          ],
        },
      },
    ]);
    expect(loaded.entries.map((entry) => entry.kind)).toEqual(['user', 'assistant', 'usage']);
    expect(loaded.entries[2]).toMatchObject({ usage: { inputTokens: 300, outputTokens: 20, cachedInputTokens: 0, cost: 0.75 } });
  });
});
