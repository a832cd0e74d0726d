import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generatedTypePaths, generateWebTypes, generateWireClient, wireClientPaths } from '../../scripts/web-types.js';

describe('the generated wire module (types.ts and wire-types.ts, wire-client.ts in web/src/api and src/tui/api)', () => {
  it('are what openapi-typescript makes of the current OpenAPI document (run `make web-types` when this fails)', { timeout: 60_000 }, () => {
    const generated = generateWebTypes();
    for (const path of generatedTypePaths) {
      expect(readFileSync(path, 'utf8') === generated, `${path} is stale: regenerate it with \`make web-types\``).toBe(true);
    }
  });

  it('copies scripts/wire-client.ts into both client trees (run `make web-types` when this fails)', () => {
    const generated = generateWireClient();
    for (const path of wireClientPaths) {
      expect(readFileSync(path, 'utf8') === generated, `${path} is stale: regenerate it with \`make web-types\``).toBe(true);
    }
  });
});
