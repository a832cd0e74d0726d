import { describe, expect, it } from 'vitest';
import { nextIndex, tableKeyAction } from './table-keys';

describe('table keys', () => {
  it('maps j/k, arrows, Home/End and Enter', () => {
    expect(tableKeyAction('j', false)).toEqual({ move: 1 });
    expect(tableKeyAction('k', false)).toEqual({ move: -1 });
    expect(tableKeyAction('ArrowDown', false)).toEqual({ move: 1 });
    expect(tableKeyAction('End', false)).toEqual({ to: 'last' });
    expect(tableKeyAction('Enter', false)).toEqual({ open: true });
    expect(tableKeyAction('j', true)).toBeUndefined();
    expect(tableKeyAction('x', false)).toBeUndefined();
  });

  it('moves the cursor inside the rows', () => {
    expect(nextIndex(-1, 5, { move: 1 })).toBe(0);
    expect(nextIndex(-1, 5, { move: -1 })).toBe(4);
    expect(nextIndex(4, 5, { move: 1 })).toBe(4);
    expect(nextIndex(0, 5, { move: -1 })).toBe(0);
    expect(nextIndex(2, 5, { to: 'first' })).toBe(0);
    expect(nextIndex(2, 0, { move: 1 })).toBe(-1);
  });
});
