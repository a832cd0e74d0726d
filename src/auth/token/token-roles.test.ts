import { describe, expect, it } from 'vitest';
import { configSchema } from '../../config/schema.js';
import { rolesFor } from './token-roles.js';

const settingsOf = (token: unknown): ReturnType<typeof configSchema.parse>['auth']['token'] => configSchema.parse({ auth: { token } }).auth.token;
const robot = { username: 'system:serviceaccount:ci:robot', groups: ['system:serviceaccounts', 'system:serviceaccounts:ci', 'system:authenticated'] };

describe('token role mappings', () => {
  it('takes the first matching entry, by user or by group', () => {
    const settings = settingsOf({
      role_mappings: [
        { group: 'system:serviceaccounts:ci', role: 'viewer' },
        { user: robot.username, role: 'admin' },
      ],
    });
    expect(rolesFor(robot, settings)).toEqual({ role: 'viewer', roles: [] });
  });

  it('requires both user and group when an entry names both', () => {
    const settings = settingsOf({
      role_mappings: [
        { user: robot.username, group: 'ops', role: 'admin' },
        { user: robot.username, role: 'user', roles: ['ci-deployer'] },
      ],
    });
    expect(rolesFor(robot, settings)).toEqual({ role: 'user', roles: ['ci-deployer'] });
  });

  it('falls back to default_role, or gives no role', () => {
    expect(rolesFor(robot, settingsOf({ default_role: 'viewer' }))).toEqual({ role: 'viewer', roles: [] });
    expect(rolesFor(robot, settingsOf({}))).toBeUndefined();
  });

  it('refuses an entry that names neither user nor group', () => {
    expect(() => settingsOf({ role_mappings: [{ role: 'admin' }] })).toThrow(/names a user or a group/);
  });
});
