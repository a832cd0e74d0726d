import { describe, expect, it } from 'vitest';
import { cellText, columnLabel, columnsOf, kindOf, matchesFilter } from './columns';

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
});
