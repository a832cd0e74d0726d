import { describe, expect, it } from 'vitest';
import { formatCpu, formatMemory, parseQuantity } from './metrics-quantity.js';

describe('quantities', () => {
  it('parses decimal, binary and exponent forms', () => {
    expect(parseQuantity('250m')).toBeCloseTo(0.25);
    expect(parseQuantity('12345678n')).toBeCloseTo(0.012345678);
    expect(parseQuantity('2')).toBe(2);
    expect(parseQuantity('128Mi')).toBe(128 * 2 ** 20);
    expect(parseQuantity('1Gi')).toBe(2 ** 30);
    expect(parseQuantity('1e3')).toBe(1000);
    expect(parseQuantity('1k')).toBe(1000);
    expect(parseQuantity('bogus')).toBeNaN();
  });
  it('formats like kubectl top', () => {
    expect(formatCpu(0.0123)).toBe('12m');
    expect(formatCpu(0.500123456)).toBe('500m');
    expect(formatCpu(0.25)).toBe('250m');
    expect(formatMemory(128 * 2 ** 20 + 5)).toBe('128Mi');
  });
});
