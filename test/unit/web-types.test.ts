import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generateWebTypes, webTypesPath } from '../../scripts/web-types.js';

describe('web/src/api/types.ts', () => {
  it('is what openapi-typescript makes of the current OpenAPI document (run `make web-types` when this fails)', { timeout: 60_000 }, () => {
    const committed = readFileSync(webTypesPath, 'utf8');
    expect(committed === generateWebTypes(), 'web/src/api/types.ts is stale: regenerate it with `make web-types`').toBe(true);
  });
});
