import { describe, expect, it } from 'vitest';
import { AppError } from '../errors.js';
import { parseYamlDocument } from './yaml-body.js';

describe('YAML request bodies', () => {
  it('parses one document (JSON too)', () => {
    expect(parseYamlDocument('apiVersion: v1\nkind: ConfigMap\n')).toEqual({ apiVersion: 'v1', kind: 'ConfigMap' });
    expect(parseYamlDocument('{"kind": "Pod"}')).toEqual({ kind: 'Pod' });
  });

  it('refuses broken YAML with the line', () => {
    try {
      parseYamlDocument('kind: Pod\nmetadata:\n  name: [a\n');
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).code).toBe('VALIDATION_ERROR');
      expect((error as AppError).details.line).toBeGreaterThan(1);
    }
  });

  it('refuses several documents', () => {
    expect(() => parseYamlDocument('a: 1\n---\nb: 2\n')).toThrow(/exactly one/);
  });
});
