import { describe, expect, it } from 'vitest';
import { sortItems } from './order.js';

describe('list order', () => {
  it('sorts events by when they were last seen, compound ages included, unknown ones last', () => {
    const events = [
      { name: 'e3f1a', lastSeen: '2d5h' },
      { name: 'a91bc', lastSeen: '3m20s' },
      { name: 'b0c1d', lastSeen: '<unknown>' },
      { name: 'c77aa', lastSeen: '45s' },
      { name: 'd12ff', lastSeen: '3m' },
    ];
    expect(sortItems(events, 'lastSeen').items.map((event) => event.lastSeen)).toEqual(['45s', '3m', '3m20s', '2d5h', '<unknown>']);
    expect(sortItems(events, '-lastSeen').items.map((event) => event.lastSeen)[0]).toBe('<unknown>');
  });
});
