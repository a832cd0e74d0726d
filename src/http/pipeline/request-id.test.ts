import { describe, expect, it } from 'vitest';
import { requestIdFrom } from './request-id.js';

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('request ids', () => {
  it("keeps a client's short id of safe characters", () => {
    for (const id of ['abc', 'trace-1.2_3:4', 'A'.repeat(64)]) expect(requestIdFrom(id)).toBe(id);
  });

  it('makes a new id for a missing, long or unsafe one', () => {
    for (const id of [undefined, '', 'A'.repeat(65), 'has space', '<script>', 'line\nbreak', 'ünï', 'a/b', 'x;drop']) {
      expect(requestIdFrom(id)).toMatch(uuid);
    }
  });
});
