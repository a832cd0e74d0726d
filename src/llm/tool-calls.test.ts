import { describe, expect, it } from 'vitest';
import { newToolCallId, parseToolArguments, toArgumentsObject } from './tool-calls.js';

describe('tool call helpers', () => {
  it('parses JSON objects and keeps anything else raw', () => {
    expect(parseToolArguments('{"resource":"pods"}')).toEqual({ resource: 'pods' });
    expect(parseToolArguments('')).toEqual({});
    expect(parseToolArguments('{"resource":')).toEqual({ _raw: '{"resource":' });
    expect(parseToolArguments('[1,2]')).toEqual({ _raw: '[1,2]' });
  });

  it('normalises decoded arguments', () => {
    expect(toArgumentsObject({ a: 1 })).toEqual({ a: 1 });
    expect(toArgumentsObject('{"a":1}')).toEqual({ a: 1 });
    expect(toArgumentsObject(undefined)).toEqual({});
  });

  it('generates unique ids', () => {
    const ids = new Set(Array.from({ length: 100 }, newToolCallId));
    expect(ids.size).toBe(100);
    expect([...ids][0]).toMatch(/^call_[0-9a-f]{32}$/);
  });
});
