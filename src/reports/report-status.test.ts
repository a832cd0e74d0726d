import { describe, expect, it } from 'vitest';
import { reportFileName } from './file-name.js';
import { StatusBuilder } from './report-status.js';

describe('StatusBuilder', () => {
  it('lists one condition per step and keeps transition times while a status stays', () => {
    let now = '2026-01-01T00:00:00.000Z';
    const builder = new StatusBuilder([], () => now).reset();
    expect(builder.list().map((condition) => `${condition.type}=${condition.status}`)).toEqual([
      'Accepted=Unknown',
      'Collected=Unknown',
      'Rendered=Unknown',
      'Stored=Unknown',
      'Ready=Unknown',
    ]);
    now = '2026-01-01T00:00:05.000Z';
    builder.set('Accepted', 'True', 'RequesterResolved', 'as alice').set('Collected', 'Unknown', 'InProgress', 'nodes');
    const [accepted, collected] = builder.list();
    expect(accepted?.lastTransitionTime).toBe('2026-01-01T00:00:05.000Z');
    expect(collected).toMatchObject({ reason: 'InProgress', message: 'nodes', lastTransitionTime: '2026-01-01T00:00:00.000Z' });
    expect(builder.status({ phase: 'generating', progress: 10 }).conditions).toHaveLength(5);
  });
});

describe('reportFileName', () => {
  it('names type, scope and creation minute', () => {
    expect(reportFileName({ type: 'security-assessment' }, '2026-11-26T08:05:09Z', 'pdf')).toBe('security-assessment-cluster-20261126-0805.pdf');
    expect(reportFileName({ type: 'cluster-overview', namespace: 'shop' }, '2026-11-26T18:45:00Z', 'md')).toBe('cluster-overview-shop-20261126-1845.md');
  });
});
