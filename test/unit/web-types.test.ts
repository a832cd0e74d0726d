import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generatedTypePaths, generateWebTypes } from '../../scripts/web-types.js';

describe('the generated wire types (web/src/api/types.ts, src/tui/api/wire-types.ts)', () => {
  it('are what openapi-typescript makes of the current OpenAPI document (run `make web-types` when this fails)', { timeout: 60_000 }, () => {
    const generated = generateWebTypes();
    for (const path of generatedTypePaths) {
      expect(readFileSync(path, 'utf8') === generated, `${path} is stale: regenerate it with \`make web-types\``).toBe(true);
    }
  });
});
