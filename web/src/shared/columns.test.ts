import { describe, expect, it } from 'vitest';
import { cellText, columnLabel, columnsOf, durationSeconds, kindOf, matchesFilter, quantityValue, sortValue } from './columns';

describe('resource columns', () => {
  it('puts name and namespace first and age last', () => {
    const items = [
      { name: 'a', age: '1d', status: 'Running', namespace: 'x' },
      { name: 'b', ready: '1/1', age: '2d', namespace: 'x' },
    ];
    expect(columnsOf(items)).toEqual(['name', 'namespace', 'status', 'ready', 'age']);
    expect(columnsOf([{ name: 'n1', status: 'Ready', age: '3d' }])).toEqual(['name', 'status', 'age']);
  });

  it('labels, formats and filters', () => {
    expect(columnLabel('nominatedNode')).toBe('NOMINATED NODE');
    expect(cellText(['a', 'b'])).toBe('a, b');
    expect(cellText(null)).toBe('');
    const item = { name: 'web-1', namespace: 'shop', status: 'Running' };
    expect(matchesFilter(item, ['name', 'namespace', 'status'], 'shop run')).toBe(true);
    expect(matchesFilter(item, ['name', 'namespace', 'status'], 'failed')).toBe(false);
    expect(kindOf('pods')).toBe('pod');
    expect(kindOf('widgets.example.com')).toBe('widgets.example.com');
  });

  it('sorts ages by their length and other cells as text', () => {
    expect(durationSeconds('3d4h')).toBe(3 * 86400 + 4 * 3600);
    expect(durationSeconds('45s')).toBe(45);
    expect(durationSeconds('<unknown>')).toBeUndefined();
    expect([sortValue('age', '5m'), sortValue('age', '2d')]).toEqual([300, 2 * 86400]);
    expect(sortValue('age', '<unknown>')).toBe(Number.MAX_SAFE_INTEGER);
    expect(sortValue('restarts', 3)).toBe(3);
    expect(sortValue('status', 'Running')).toBe('Running');
  });

  it('sorts CPU and memory by amount', () => {
    expect(quantityValue('250m')).toBeCloseTo(0.25);
    expect(quantityValue('2')).toBe(2);
    expect(quantityValue('64Mi (12%)')).toBe(64 * 1024 * 1024);
    expect(quantityValue('n/a')).toBeUndefined();
    expect(sortValue('cpu', '1500m')).toBeGreaterThan(sortValue('cpu', '2m') as number);
    expect(sortValue('memory', '1Gi')).toBeGreaterThan(sortValue('memory', '900Mi') as number);
  });
});
