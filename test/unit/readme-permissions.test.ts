import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readmeWithPermissions } from '../../scripts/readme-permissions.js';

describe('README permission table', () => {
  it('lists every route with the permission the route table declares (regenerate: make readme-permissions)', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    expect(readme).toBe(readmeWithPermissions(readme));
  });
});
