import { describe, expect, it } from 'vitest';
import { ownsOrAdministers } from './ownership.js';

describe('ownsOrAdministers', () => {
  it('lets the owner and admins in, nobody else', () => {
    expect(ownsOrAdministers({ username: 'alice', role: 'viewer', roles: [] }, 'alice')).toBe(true);
    expect(ownsOrAdministers({ username: 'root', role: 'admin', roles: [] }, 'alice')).toBe(true);
    expect(ownsOrAdministers({ username: 'bob', role: 'user', roles: [] }, 'alice')).toBe(false);
    expect(ownsOrAdministers({ username: 'bob', role: 'user', roles: [] }, undefined)).toBe(false);
    expect(ownsOrAdministers(undefined, 'alice')).toBe(false);
  });
});
