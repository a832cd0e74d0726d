import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { permissionsPagePath, readmeWithPermissions } from '../../scripts/readme-permissions.js';

describe('the permission table, docs/reference/permissions.md', () => {
  it('lists every route with the permission the route table declares (regenerate: make readme-permissions)', () => {
    const page = readFileSync(permissionsPagePath, 'utf8');
    expect(page).toBe(readmeWithPermissions(page));
  });
});
