import { describe, expect, it } from 'vitest';
import { buildSystemPrompt, type PromptInput } from './system-prompt.js';

const base: PromptInput = { username: 'ana', role: 'user', context: { namespace: 'shop' }, tools: ['kubectl'], language: 'en', beginnerMode: false };

describe('the system prompt of a question about a finding', () => {
  it('quotes the finding, its evidence and its read-only next step', () => {
    const prompt = buildSystemPrompt({
      ...base,
      context: { namespace: 'shop', resource: 'Pod/web-1', finding: 'a'.repeat(20) },
      finding: {
        severity: 'critical',
        reason: 'CrashLoopBackOff',
        message: 'container main keeps crashing (exit code 3)',
        object: { kind: 'Pod', namespace: 'shop', name: 'web-1' },
        owner: { kind: 'Deployment', name: 'web' },
        evidence: ['status.containerStatuses[main].state.waiting.reason: CrashLoopBackOff'],
        hint: 'kubectl logs web-1 -n shop -c main --previous',
        since: '2026-01-01T00:00:00Z',
      },
    });
    expect(prompt).toContain('critical finding on Pod shop/web-1 (owned by Deployment web)');
    expect(prompt).toContain('CrashLoopBackOff: container main keeps crashing (exit code 3)');
    expect(prompt).toContain('- status.containerStatuses[main].state.waiting.reason: CrashLoopBackOff');
    expect(prompt).toContain('Suggested read-only next step: kubectl logs web-1 -n shop -c main --previous');
  });

  it('says so when the finding is gone, and nothing without one', () => {
    expect(buildSystemPrompt({ ...base, context: { finding: 'b'.repeat(20) } })).toContain('no longer finds');
    expect(buildSystemPrompt(base)).not.toContain('finding');
  });
});
