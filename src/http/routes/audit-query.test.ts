import { describe, expect, it } from 'vitest';
import { auditQuerySchema } from './audit.js';

describe('audit query', () => {
  it('accepts dates (whole UTC days) and date-times with Z or an offset', () => {
    const parsed = auditQuerySchema.parse({ from: '2024-05-01', to: '2024-05-02', limit: '10', offset: '5' });
    expect(parsed).toEqual({ from: '2024-05-01T00:00:00.000Z', to: '2024-05-02T23:59:59.999Z', limit: 10, offset: 5 });
    expect(auditQuerySchema.parse({ from: '2024-05-01T10:00:00+02:00' }).from).toBe('2024-05-01T08:00:00.000Z');
  });

  it('refuses bad values', () => {
    for (const query of [
      { limit: '0' },
      { limit: '1001' },
      { limit: 'x' },
      { offset: '-1' },
      { action: 'nope' },
      { from: '2024-13-01' },
      { from: '2024-02-30' },
      { to: 'yesterday' },
      { from: '2024-05-01T10:00:00' },
    ]) {
      expect(auditQuerySchema.safeParse(query).success, JSON.stringify(query)).toBe(false);
    }
  });
});
