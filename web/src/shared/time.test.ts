import { describe, expect, it } from 'vitest';
import { formatTime } from './time';

describe('formatTime', () => {
  it("reads helm's Go time format as the same instant as RFC 3339", () => {
    expect(formatTime('2026-11-26 09:59:58.123456789 +0200 CEST')).toBe(formatTime('2026-11-26T07:59:58.123Z'));
    expect(formatTime('2026-11-26 07:59:58 +0000 UTC')).toBe(formatTime('2026-11-26T07:59:58Z'));
    expect(formatTime('not a time')).toBe('not a time');
  });
});
