import { describe, expect, it } from 'vitest';
import { slimRow } from './table-cache.js';
import type { TableRow } from './table.js';

describe('slimRow', () => {
  it('keeps what rows and filters read and drops managedFields and annotations', () => {
    const received = {
      cells: ['web-1', '1/1', 'Running', 0],
      object: {
        metadata: {
          name: 'web-1',
          namespace: 'shop',
          uid: 'u-1',
          resourceVersion: '42',
          creationTimestamp: '2026-11-23T00:00:00Z',
          labels: { app: 'web' },
          annotations: { 'kubectl.kubernetes.io/last-applied-configuration': 'x'.repeat(10_000) },
          managedFields: [{ manager: 'kubectl' }],
        },
      },
    } as unknown as TableRow;
    const slim = slimRow(received);
    expect(slim).toEqual({
      cells: ['web-1', '1/1', 'Running', 0],
      object: {
        metadata: { name: 'web-1', namespace: 'shop', creationTimestamp: '2026-11-23T00:00:00Z', labels: { app: 'web' } },
      },
    });
    // 161 characters kept of the more than 10,000 received.
    expect(JSON.stringify(received).length).toBeGreaterThan(10_000);
    expect(JSON.stringify(slim)).toHaveLength(161);
    expect(slim.object?.metadata?.name).toBe(slim.cells[0]);
  });
});
