import { describe, expect, it } from 'vitest';
import { render } from 'ink-testing-library';
import { Text } from 'ink';
import stringWidth from 'string-width';
import { createTranslate } from '../core/i18n.js';
import { PilotView, type PilotViewProps } from './pilot-view.js';
import { applyEvent, emptyTranscript, type Transcript } from './transcript.js';
import type { PilotEvent } from './pilot-types.js';

const requestedAt = Date.parse('2026-11-26T09:00:00Z');

/** A turn as the service streams it: a question, a write that needs approval, with two warnings. */
function turn(...more: PilotEvent[]): Transcript {
  const events: PilotEvent[] = [
    { event: 'session', data: { session_id: 's-1' } },
    { event: 'chunk', data: { content: 'I will scale the deployment.' } },
    {
      event: 'tool_request',
      data: {
        tool: 'kubectl',
        command: 'kubectl scale deployment web --replicas=0 -n shop',
        id: 'call-1',
        type: 'write',
        requiresApproval: true,
        blocked: false,
        warnings: ['Scaling to 0 stops every pod of the deployment', 'Namespace shop serves production traffic'],
      },
    },
    ...more,
  ];
  const start: Transcript = { ...emptyTranscript, busy: true, entries: [{ kind: 'user', text: 'Stop web' }] };
  return events.reduce((state, event) => applyEvent(state, event, requestedAt), start);
}

function props(transcript: Transcript, now: number, overrides: Partial<PilotViewProps> = {}): PilotViewProps {
  return {
    transcript,
    width: 60,
    height: 16,
    now,
    timeoutMs: 30_000,
    expanded: new Set(),
    t: createTranslate('en'),
    ascii: false,
    footer: <Text>footer</Text>,
    ...overrides,
  };
}

describe('PilotView', () => {
  it('shows a waiting tool call with its class, warnings and the approval countdown ticking down', () => {
    const transcript = turn();
    const view = render(<PilotView {...props(transcript, requestedAt + 2_500)} />);
    const frame = view.lastFrame() ?? '';
    expect(frame).toContain('kubectl scale deployment web --replicas=0 -n shop');
    expect(frame).toContain('[write]');
    expect(frame).toContain('⚠ Scaling to 0 stops every pod of the deployment');
    expect(frame).toContain('⚠ Namespace shop serves production traffic');
    expect(frame).toContain('Approve? y yes / n no — 28 s left');
    view.rerender(<PilotView {...props(transcript, requestedAt + 11_000)} />);
    expect(view.lastFrame()).toContain('— 19 s left');
    view.rerender(<PilotView {...props(transcript, requestedAt + 45_000)} />);
    expect(view.lastFrame()).toContain('— 0 s left');
  });

  it('drops the countdown once decided and folds the result to one line until unfolded', () => {
    const result = 'deployment.apps/web scaled\nline two\nline three';
    const done = turn({ event: 'tool_execution', data: { id: 'call-1', result, status: 'executed' } });
    const folded = render(<PilotView {...props(done, requestedAt + 5_000)} />).lastFrame() ?? '';
    expect(folded).not.toContain('s left');
    expect(folded).toContain('✓ ▸ executed · deployment.apps/web scaled  +2 lines');
    expect(folded).not.toContain('line three');
    const open = render(<PilotView {...props(done, requestedAt + 5_000, { expanded: new Set(['call-1']) })} />).lastFrame() ?? '';
    expect(open).toContain('✓ ▾ executed');
    expect(open).toContain('line three');
  });

  it('speaks Korean and keeps every line inside the pane by display width', () => {
    const transcript = turn();
    const frame = render(<PilotView {...props(transcript, requestedAt + 1_000, { t: createTranslate('ko'), width: 50 })} />).lastFrame() ?? '';
    expect(frame).toContain('[쓰기]');
    expect(frame).toContain('승인할까요? y 예 / n 아니요 — 29초 남음');
    for (const line of frame.split('\n')) expect(stringWidth(line)).toBeLessThanOrEqual(50);
  });

  it('draws plain ASCII marks with --ascii', () => {
    const frame = render(<PilotView {...props(turn(), requestedAt, { ascii: true })} />).lastFrame() ?? '';
    expect(frame).toContain('! Scaling to 0');
    expect(frame).toContain('* kubectl scale');
    expect(frame).not.toMatch(/[⚠⚙│]/);
  });
});
