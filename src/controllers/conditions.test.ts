import { describe, expect, it } from 'vitest';
import { setCondition } from './conditions.js';

const wanted = { type: 'Ready', status: 'True' as const, reason: 'Connected', message: '3 tools' };

describe('setCondition', () => {
  it('moves lastTransitionTime only when the status changes and keeps other conditions', () => {
    const first = setCondition([{ type: 'Other', status: 'False' }], wanted, 1, 't1');
    expect(first).toMatchObject({ changed: true, transition: true });
    expect(first.conditions).toEqual([
      { type: 'Other', status: 'False' },
      { ...wanted, observedGeneration: 1, lastTransitionTime: 't1' },
    ]);
    const same = setCondition(first.conditions, wanted, 1, 't2');
    expect(same).toMatchObject({ changed: false, transition: false });
    const reworded = setCondition(first.conditions, { ...wanted, message: '4 tools' }, 2, 't3');
    expect(reworded).toMatchObject({ changed: true, transition: false });
    expect(reworded.conditions[1]?.lastTransitionTime).toBe('t1');
    const failed = setCondition(first.conditions, { ...wanted, status: 'False', reason: 'Failed' }, 2, 't4');
    expect(failed).toMatchObject({ changed: true, transition: true });
    expect(failed.conditions[1]?.lastTransitionTime).toBe('t4');
  });
});
