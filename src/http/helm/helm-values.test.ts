import { describe, expect, it } from 'vitest';
import { isAppError } from '../../errors.js';
import { withYamlValues } from './helm-values.js';

/** Nine levels of nine aliases each: 475 bytes of YAML that expand to ~10^9 leaves. */
function aliasBomb(): string {
  const lines = ['a: &a ["x","x","x","x","x","x","x","x","x"]'];
  for (let level = 1; level < 9; level += 1) {
    const previous = String.fromCharCode(96 + level);
    const name = String.fromCharCode(97 + level);
    lines.push(`${name}: &${name} [${Array.from({ length: 9 }, () => `*${previous}`).join(',')}]`);
  }
  return lines.join('\n');
}

function refusal(valuesYaml: string): unknown {
  try {
    withYamlValues({ values: {}, valuesYaml });
  } catch (error) {
    return isAppError(error) ? { code: error.code, message: error.message } : error;
  }
  return undefined;
}

describe('helm values as YAML', () => {
  it('parses a mapping into values', () => {
    expect(withYamlValues({ values: {}, valuesYaml: 'replicas: 2\nimage: {tag: v1}' }).values).toEqual({ replicas: 2, image: { tag: 'v1' } });
  });

  it('refuses an alias bomb instead of expanding it', () => {
    expect(refusal(aliasBomb())).toMatchObject({ code: 'VALIDATION_ERROR' });
  });

  it('refuses values nested past the depth limit', () => {
    expect(refusal(`v: ${'['.repeat(150)}${']'.repeat(150)}`)).toMatchObject({ code: 'VALIDATION_ERROR' });
  });
});
