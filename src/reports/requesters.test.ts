import { describe, expect, it } from 'vitest';
import { parseConfig } from '../config/load.js';
import type { Report } from '../crds/report.js';
import type { UserRecord } from '../store/users-store.js';
import { annotationsFor, RequesterDirectory, type RequesterDirectoryDeps } from './requesters.js';

const account = (username: string, changes: Partial<UserRecord> = {}): UserRecord => ({
  username,
  passwordHash: null,
  role: 'user',
  email: null,
  roles: ['no-secrets'],
  enabled: true,
  locked: false,
  source: 'local',
  createdAt: '',
  updatedAt: '',
  ...changes,
});

function report(requester: string | undefined, annotations: Record<string, string> = {}): Report {
  return { metadata: { name: 'r', annotations }, spec: { type: 'cluster-overview', format: 'pdf', requester } };
}

function directory(overrides: Partial<RequesterDirectoryDeps> = {}): RequesterDirectory {
  const users = new Map([
    ['alice', account('alice')],
    ['locked', account('locked', { locked: true })],
  ]);
  const token = parseConfig({ auth: { token: { role_mappings: [{ user: 'ci-bot', role: 'viewer', roles: ['ci'] }] } } }, {}, 'test').auth.token;
  return new RequesterDirectory({ findUser: (name) => Promise.resolve(users.get(name)), authMode: 'local', tokenSettings: token, ...overrides });
}

describe('RequesterDirectory', () => {
  it('takes role and resource roles from the account, as of now', async () => {
    expect(await directory().resolve(report('alice', annotationsFor({ username: 'alice', role: 'admin', roles: [] })))).toEqual({
      principal: { username: 'alice', role: 'user', roles: ['no-secrets'] },
    });
  });

  it('refuses locked accounts, unknown names and an empty requester, saying why', async () => {
    expect(await directory().resolve(report('locked'))).toEqual({ problem: 'requester locked is locked in Pilothouse' });
    expect(await directory().resolve(report('stranger'))).toMatchObject({ problem: expect.stringContaining('stranger is not a Pilothouse user') });
    expect(await directory().resolve(report(undefined))).toMatchObject({ problem: expect.stringContaining('spec.requester is empty') });
  });

  it('uses the roles Pilothouse recorded for callers without an account (SSO, token mode)', async () => {
    const principal = { username: 'oidc:bob', role: 'viewer' as const, roles: ['audit'], groups: ['oidc:ops'], identitySource: 'oidc' as const };
    expect(await directory().resolve(report('oidc:bob', annotationsFor(principal)))).toEqual({ principal });
  });

  it('maps token-mode names by auth.token.role_mappings, and everyone to admin without auth', async () => {
    expect(await directory({ authMode: 'token' }).resolve(report('ci-bot'))).toEqual({ principal: { username: 'ci-bot', role: 'viewer', roles: ['ci'] } });
    expect(await directory({ authMode: 'token' }).resolve(report('other'))).toMatchObject({ problem: expect.stringContaining('no auth.token role mapping') });
    expect(await directory({ authMode: 'none' }).resolve(report('anyone'))).toEqual({ principal: { username: 'anyone', role: 'admin', roles: [] } });
  });
});
