import { describe, expect, it } from 'vitest';
import { applyLiveEvent, liveListResponse, type LiveRows } from './live-list';

const event = (name: string, data: unknown) => ({ event: name, data: JSON.stringify(data) });

describe('live list events', () => {
  it('replaces on snapshot, then adds, modifies and deletes rows in place', () => {
    const rows: LiveRows = new Map();
    expect(
      applyLiveEvent(
        rows,
        event('snapshot', {
          items: [
            { name: 'b', namespace: 'x' },
            { name: 'a', namespace: 'x' },
          ],
          total: 2,
          revision: '1',
        }),
      ),
    ).toBe(true);
    expect(liveListResponse(rows).items.map((item) => item.name)).toEqual(['a', 'b']);
    applyLiveEvent(rows, event('added', { item: { name: 'c', namespace: 'w' }, revision: '2' }));
    applyLiveEvent(rows, event('modified', { item: { name: 'a', namespace: 'x', status: 'Running' }, revision: '3' }));
    applyLiveEvent(rows, event('deleted', { item: { name: 'b', namespace: 'x' }, revision: '4' }));
    expect(liveListResponse(rows)).toEqual({
      items: [
        { name: 'c', namespace: 'w' },
        { name: 'a', namespace: 'x', status: 'Running' },
      ],
      total: 2,
    });
    expect(applyLiveEvent(rows, { event: 'message', data: '{}' })).toBe(false);
  });
});
