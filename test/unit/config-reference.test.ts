import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { configReference, configReferencePath } from '../../scripts/config-reference.js';
import { configKeys } from '../../src/config/config-keys.js';
import { configKeyDescriptions } from '../../src/config/key-descriptions.js';
import { configSchema } from '../../src/config/schema.js';

describe('the configuration reference, docs/reference/configuration.md', () => {
  it('is generated from the config schema as it is now (regenerate: make config-reference)', () => {
    const committed = readFileSync(configReferencePath, 'utf8');
    expect(committed === configReference(), 'docs/reference/configuration.md is stale: run make config-reference and commit it').toBe(true);
  });

  it('describes every key of the schema, and only keys the schema has (src/config/key-descriptions.ts)', () => {
    const paths = configKeys(configSchema).map((key) => key.path);
    expect(paths.filter((path) => !configKeyDescriptions[path]?.trim())).toEqual([]);
    expect(Object.keys(configKeyDescriptions).filter((path) => !paths.includes(path))).toEqual([]);
  });

  it('names each key with its type and default as the service reads them', () => {
    const reference = configReference();
    expect(reference).toContain('| `server.port` | integer 0–65535 | `8080` |');
    expect(reference).toContain('| `authorization.jwt.max_session` | duration | `12h` |');
    expect(reference).toContain('| `clusters[].name` | string | required |');
    expect(reference).toContain('| `auth.mode` | local \\| token \\| ldap \\| oidc \\| none | `local` |');
  });
});
