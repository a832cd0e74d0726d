import { describe, expect, it } from 'vitest';
import { FixedWindowCounter } from './rate-window.js';

describe('FixedWindowCounter', () => {
  it('counts per key within a window and resets after it (injected clock, no sleeping)', () => {
    let now = 1_700_000_000_000;
    const counter = new FixedWindowCounter(() => now);
    for (let index = 0; index < 3; index += 1) expect(counter.hit('a', 3).allowed).toBe(true);
    const over = counter.hit('a', 3);
    expect(over).toMatchObject({ allowed: false, remaining: 0, limit: 3, resetAt: 1_700_000_060_000, retryAfterSeconds: 60 });
    expect(counter.hit('b', 3).remaining).toBe(2);
    now += 30_000;
    expect(counter.hit('a', 3).retryAfterSeconds).toBe(30);
    now += 30_000;
    expect(counter.hit('a', 3)).toMatchObject({ allowed: true, remaining: 2 });
  });

  it('peeks without counting and resets on demand', () => {
    const counter = new FixedWindowCounter(() => 0);
    counter.hit('k', 2);
    expect(counter.peek('k', 2)).toMatchObject({ allowed: true, remaining: 1 });
    counter.hit('k', 2);
    expect(counter.peek('k', 2).allowed).toBe(false);
    counter.reset('k');
    expect(counter.peek('k', 2).remaining).toBe(2);
  });
});
