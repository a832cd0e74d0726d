import { describe, expect, it } from 'vitest';
import { yamlAliasBomb } from '../../../test/fixtures/yaml-alias-bomb.js';
import { AppError } from '../../errors.js';
import { assertBodyShape, maxBodyDepth, maxYamlAliases, parseYamlDocument } from './yaml-body.js';

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

describe('YAML and JSON body limits (ADR 0027)', () => {
  const bomb = yamlAliasBomb;

  // How quickly: bench/test-bounds.bench.ts.
  it('refuses an alias bomb by its expanded size', () => {
    expect(() => parseYamlDocument(bomb, 1024 * 1024)).toThrow(
      expect.objectContaining({ code: 'PAYLOAD_TOO_LARGE', details: expect.objectContaining({ reason: 'expanded_too_large' }) }),
    );
  });

  it('refuses more aliases than the budget', () => {
    const many = `x: &x 1\ny: [${Array(maxYamlAliases + 1)
      .fill('*x')
      .join(',')}]\n`;
    expect(() => parseYamlDocument(many, 1024 * 1024)).toThrow(/maxAliases/);
    expect(parseYamlDocument(`x: &x {a: 1}\ny: *x\n`, 1024)).toEqual({ x: { a: 1 }, y: { a: 1 } });
  });

  it('measures shared subtrees each time and refuses nesting past the depth limit', () => {
    const shared = { text: 'y'.repeat(100) };
    expect(() => assertBodyShape({ list: Array(20).fill(shared) }, 1000)).toThrow(expect.objectContaining({ code: 'PAYLOAD_TOO_LARGE' }));
    assertBodyShape({ list: Array(5).fill(shared) }, 1000);
    let nested: unknown = 1;
    for (let level = 0; level < maxBodyDepth + 1; level += 1) nested = [nested];
    expect(() => assertBodyShape(nested, 1024 * 1024)).toThrow(
      expect.objectContaining({ code: 'VALIDATION_ERROR', details: expect.objectContaining({ reason: 'too_deep' }) }),
    );
  });
});
