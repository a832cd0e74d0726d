import { describe, expect, it } from 'vitest';
import { normalizeDirectoryName } from './ldap-verifier.js';

describe('directory login names', () => {
  it('compares like caseIgnoreMatch: case, surrounding and repeated spaces do not matter', () => {
    for (const spelling of ['alice', 'ALICE', ' alice ', 'Alice', '\talice\n', 'ａｌｉｃｅ']) expect(normalizeDirectoryName(spelling)).toBe('alice');
    expect(normalizeDirectoryName('  Mary   Ann ')).toBe('mary ann');
  });
});
