import { describe, expect, it } from 'vitest';
import { columnKey, rowToItem, shortAge } from './table.js';

describe('table conversion', () => {
  const now = Date.parse('2026-01-10T00:00:00Z');
  it('prints ages like kubectl', () => {
    expect(shortAge('2026-01-09T23:59:20Z', now)).toBe('40s');
    expect(shortAge('2026-01-09T23:48:00Z', now)).toBe('12m');
    expect(shortAge('2026-01-09T21:00:00Z', now)).toBe('3h');
    expect(shortAge('2026-01-05T00:00:00Z', now)).toBe('5d');
  });
  it('camel-cases column names', () => {
    expect(columnKey('Nominated Node')).toBe('nominatedNode');
    expect(columnKey('UP-TO-DATE')).toBe('upToDate');
  });
  it('turns a pod row into the contract item with integer restarts', () => {
    const columns = ['Name', 'Ready', 'Status', 'Restarts', 'Age', 'IP', 'Node'].map((name) => ({ name, type: 'string' }));
    const item = rowToItem(
      columns,
      {
        cells: ['web-1', '1/2', 'Running', '3 (5m ago)', '1d', '10.0.0.1', 'kwok-node-0'],
        object: { metadata: { name: 'web-1', namespace: 'shop', creationTimestamp: '2026-01-08T00:00:00Z' } },
      },
      now,
      'Pod',
    );
    expect(item).toEqual({ name: 'web-1', namespace: 'shop', status: 'Running', ready: '1/2', restarts: 3, age: '2d', node: 'kwok-node-0', ip: '10.0.0.1' });
  });
});
