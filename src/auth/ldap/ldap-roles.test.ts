import { describe, expect, it } from 'vitest';
import { configSchema } from '../../config/schema.js';
import { configuredAuthMode } from './ldap-mode.js';
import { roleFromGroups } from './ldap-roles.js';

describe('roleFromGroups', () => {
  const groupRoles = { 'k8s-viewers': 'viewer', 'CN=K8s-Admins,OU=Groups,DC=Example': 'admin', 'k8s-operators': 'user' } as const;

  it('matches cn values or DNs case-insensitively and lets the highest role win', () => {
    const groups = [
      { dn: 'cn=k8s-viewers,ou=groups,dc=example', names: ['k8s-viewers'] },
      { dn: 'cn=k8s-admins,ou=groups,dc=example', names: ['k8s-admins'] },
    ];
    expect(roleFromGroups(groups, groupRoles)).toBe('admin');
    expect(roleFromGroups([{ dn: 'cn=ops,dc=example', names: ['K8S-OPERATORS'] }], groupRoles)).toBe('user');
  });

  it('is undefined when no group is mapped', () => {
    expect(roleFromGroups([{ dn: 'cn=contractors,dc=example', names: ['contractors'] }], groupRoles)).toBeUndefined();
    expect(roleFromGroups([], groupRoles)).toBeUndefined();
  });
});

describe('configuredAuthMode', () => {
  it('turns the default local mode into ldap when ldap.enabled is true', () => {
    expect(configuredAuthMode(configSchema.parse({ ldap: { enabled: true } }))).toBe('ldap');
    expect(configuredAuthMode(configSchema.parse({}))).toBe('local');
    expect(configuredAuthMode(configSchema.parse({ auth: { mode: 'token' }, ldap: { enabled: true } }))).toBe('token');
  });
});
