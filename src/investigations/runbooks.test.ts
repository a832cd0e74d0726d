import { describe, expect, it } from 'vitest';
import type { Investigation } from '../crds/investigation.js';
import { alertSubject } from './alertmanager-webhook.js';
import { parseRunbook, runbookMatches } from './runbooks.js';

function investigation(labels: Record<string, string>, kind?: string): Investigation {
  return {
    metadata: { name: 'inv-test' },
    spec: {
      question: 'why?',
      alert: { labels, annotations: {}, fingerprint: 'abc' },
      ...(kind ? { subject: { kind, namespace: 'shop', name: 'web' } } : {}),
    },
  };
}

describe('runbooks', () => {
  const text = [
    '---',
    'title: Web errors',
    'match:',
    '  alertname: WebErrors',
    '  labels: {severity: critical}',
    '  kinds: [Deployment]',
    '---',
    'Step one.',
  ].join('\n');

  it('reads the title, match and Markdown body of front matter between --- lines', () => {
    expect(parseRunbook('web', text)).toEqual({
      name: 'web',
      title: 'Web errors',
      match: { alertname: 'WebErrors', labels: { severity: 'critical' }, kinds: ['Deployment'] },
      body: 'Step one.',
    });
  });

  it('applies only when every criterion holds', () => {
    const runbook = parseRunbook('web', text);
    expect(runbookMatches(runbook, investigation({ alertname: 'WebErrors', severity: 'critical' }, 'Deployment'))).toBe(true);
    expect(runbookMatches(runbook, investigation({ alertname: 'WebErrors', severity: 'warning' }, 'Deployment'))).toBe(false);
    expect(runbookMatches(runbook, investigation({ alertname: 'Other', severity: 'critical' }, 'Deployment'))).toBe(false);
    expect(runbookMatches(runbook, investigation({ alertname: 'WebErrors', severity: 'critical' }, 'Pod'))).toBe(false);
    expect(runbookMatches(runbook, investigation({ alertname: 'WebErrors', severity: 'critical' }))).toBe(false);
  });

  it('never applies a runbook without front matter or without criteria on its own', () => {
    expect(runbookMatches(parseRunbook('plain', 'Just text.'), investigation({ alertname: 'WebErrors' }))).toBe(false);
    expect(runbookMatches(parseRunbook('empty', '---\ntitle: x\n---\nbody'), investigation({ alertname: 'WebErrors' }))).toBe(false);
    expect(parseRunbook('broken', '---\n: [\n---\nbody')).toMatchObject({ title: 'broken', match: undefined, body: 'body' });
  });
});

describe('the subject of an alert', () => {
  it('is the most specific object its labels name', () => {
    expect(alertSubject({ namespace: 'shop', pod: 'web-1', deployment: 'web' })).toEqual({ kind: 'Pod', namespace: 'shop', name: 'web-1' });
    expect(alertSubject({ namespace: 'shop', deployment: 'web' })).toEqual({ kind: 'Deployment', namespace: 'shop', name: 'web' });
    expect(alertSubject({ node: 'worker-1' })).toEqual({ kind: 'Node', name: 'worker-1' });
    expect(alertSubject({ namespace: 'shop' })).toEqual({ kind: 'Namespace', name: 'shop' });
    expect(alertSubject({ alertname: 'Watchdog' })).toBeUndefined();
  });
});
