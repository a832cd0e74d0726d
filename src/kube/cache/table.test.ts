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
  it('reuses a converted row only while every age it shows stays the same', () => {
    const columns = [
      { name: 'Name', type: 'string' },
      { name: 'Last Schedule', type: 'date' },
    ];
    const row = {
      cells: ['nightly', '2026-01-09T23:59:58Z'],
      object: { metadata: { name: 'nightly', namespace: 'ops', creationTimestamp: '2026-01-09T23:00:00Z' } },
    };
    const first = rowToItem(columns, row, now, 'CronJob');
    expect(first).toMatchObject({ age: '60m', lastSchedule: '2s' });
    expect(rowToItem(columns, row, now + 500, 'CronJob')).toBe(first);
    // One second on, the last schedule reads 3s: the item is made again, the creation age is still 60m.
    expect(rowToItem(columns, row, now + 1000, 'CronJob')).toMatchObject({ age: '60m', lastSchedule: '3s' });
    // A minute on, the creation age moves too.
    expect(rowToItem(columns, row, now + 60_000, 'CronJob')).toMatchObject({ age: '61m', lastSchedule: '62s' });
    // The same row under other columns (a new column set from the API server) is converted again.
    expect(rowToItem([{ name: 'Name', type: 'string' }], row, now + 60_000, 'CronJob')).toEqual({ name: 'nightly', namespace: 'ops', age: '61m' });
  });
  it('shows <unknown> for a missing or unreadable time', () => {
    expect(shortAge(undefined, now)).toBe('<unknown>');
    expect(shortAge('not a time', now)).toBe('<unknown>');
  });
});
