import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './load.js';

/** Loads a config file with the given text, as the start does (missing keys take their defaults). */
function load(text: string): ReturnType<typeof loadConfig> {
  const path = join(mkdtempSync(join(tmpdir(), 'ph-oidc-config-')), 'config.yaml');
  writeFileSync(path, text);
  return loadConfig(path, {});
}

describe('oidc config', () => {
  it('reads role_mappings as separate users and groups maps', () => {
    const config = load('oidc:\n  role_mappings:\n    groups: {devs: user, platform-admins: admin}\n    users: {alice: admin}\n');
    expect(config.oidc.role_mappings).toEqual({ groups: { devs: 'user', 'platform-admins': 'admin' }, users: { alice: 'admin' } });
    expect(load('').oidc.role_mappings).toEqual({ users: {}, groups: {} });
    expect(load('oidc:\n  role_mappings: {}\n').oidc.role_mappings).toEqual({ users: {}, groups: {} });
  });

  it('refuses the old flat form with one line saying how to migrate', () => {
    for (const text of ['oidc:\n  role_mappings: {devs: user, alice: admin}\n', 'oidc:\n  role_mappings: {users: admin}\n']) {
      expect(() => load(text)).toThrow(/^config \S+: oidc\.role_mappings: the flat form .* move each entry under users: or groups:/);
      try {
        load(text);
      } catch (error) {
        expect((error as Error).message).not.toContain('\n');
      }
    }
    expect(() => load('oidc:\n  role_mappings: {groups: {devs: root}}\n')).toThrow(/oidc\.role_mappings\.groups\.devs/);
    expect(() => load('oidc:\n  role_mappings: {group: {devs: user}}\n')).toThrow(/oidc\.role_mappings/);
  });

  it('refuses empty prefixes under impersonation.mode user, naming the key', () => {
    const userMode = 'authorization:\n  impersonation: {enabled: true, mode: user}\n';
    expect(() => load(`${userMode}oidc:\n  username_prefix: ""\n`)).toThrow(
      /: oidc\.username_prefix: must not be empty when authorization\.impersonation\.mode is user/,
    );
    expect(() => load(`${userMode}oidc:\n  groups_prefix: ""\n`)).toThrow(/: oidc\.groups_prefix: must not be empty/);
    expect(load(`${userMode}oidc:\n  username_prefix: "sso:"\n`).oidc.groups_prefix).toBe('sso:');
    // role mode sends mapped identities, never the provider's names: an empty prefix is allowed there.
    expect(load('oidc:\n  username_prefix: ""\n').oidc.username_prefix).toBe('');
  });

  it('refuses a prefix in the reserved system: space', () => {
    expect(() => load('oidc:\n  groups_prefix: "system:"\n')).toThrow(/oidc\.groups_prefix: must not start with "system:"/);
    expect(() => load('oidc:\n  username_prefix: "System:x-"\n')).toThrow(/oidc\.username_prefix/);
  });
});
