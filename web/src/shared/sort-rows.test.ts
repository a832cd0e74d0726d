import { describe, expect, it } from 'vitest';
import { compareValues, nextSort, sortRows } from './sort-rows';

describe('sortRows', () => {
  const rows = [
    { name: 'web-10', age: 600 },
    { name: 'web-2', age: undefined },
    { name: 'api', age: 30 },
    { name: 'Web-1', age: 30 },
  ];

  it('keeps the given order without a sort', () => {
    expect(sortRows(rows, (row) => row.name, undefined)).toBe(rows);
  });

  it('orders text naturally and case-insensitively, both ways', () => {
    const ascending = sortRows(rows, (row) => row.name, { key: 'name', direction: 'ascending' });
    expect(ascending.map((row) => row.name)).toEqual(['api', 'Web-1', 'web-2', 'web-10']);
    const descending = sortRows(rows, (row) => row.name, { key: 'name', direction: 'descending' });
    expect(descending.map((row) => row.name)).toEqual(['web-10', 'web-2', 'Web-1', 'api']);
  });

  it('orders numbers numerically, keeps ties in their order and puts empty values last', () => {
    const ascending = sortRows(rows, (row) => row.age, { key: 'age', direction: 'ascending' });
    expect(ascending.map((row) => row.name)).toEqual(['api', 'Web-1', 'web-10', 'web-2']);
    const descending = sortRows(rows, (row) => row.age, { key: 'age', direction: 'descending' });
    expect(descending.map((row) => row.name)).toEqual(['web-10', 'api', 'Web-1', 'web-2']);
  });
});

describe('compareValues', () => {
  it('puts empty values after everything', () => {
    expect(compareValues('', 'a')).toBe(1);
    expect(compareValues(1, undefined)).toBe(-1);
  });
});

describe('nextSort', () => {
  it('goes ascending, then descending, and starts ascending on another column', () => {
    const first = nextSort(undefined, 'name');
    expect(first).toEqual({ key: 'name', direction: 'ascending' });
    expect(nextSort(first, 'name')).toEqual({ key: 'name', direction: 'descending' });
    expect(nextSort({ key: 'name', direction: 'descending' }, 'name')).toEqual({ key: 'name', direction: 'ascending' });
    expect(nextSort(first, 'age')).toEqual({ key: 'age', direction: 'ascending' });
  });
});
