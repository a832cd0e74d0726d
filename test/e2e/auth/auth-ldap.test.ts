import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/log.js';
import { startTestService, testAdminPassword, type ApiResponse, type TestService } from '../../helpers/service.js';
import { ldapGroupsDn, ldapRootDn, ldapSuffix, startSlapd, type RunningSlapd } from '../../helpers/slapd.js';

/** The service account's password: reaches the config only through `${LDAP_PASSWORD}`. */
const bindPassword = 'bind-secret-Zq8vT2';
const users = [
  { uid: 'alice', password: 'alice-pass-1', mail: 'alice@pilothouse.test', groups: ['k8s-admins', 'k8s-viewers'] },
  { uid: 'oscar', password: 'oscar-pass-1', groups: ['k8s-operators'] },
  { uid: 'vera', password: 'vera-pass-1', groups: ['k8s-viewers'] },
  { uid: 'carl', password: 'carl-pass-1', groups: ['contractors'] },
  { uid: 'lena', password: 'lena-pass-1', groups: ['k8s-viewers'] },
];

let directory: RunningSlapd;
let service: TestService;
let logs = '';
/** Every response body seen, to prove the bind password never leaves the service. */
const seen: string[] = [];

async function login(username: string, password: string): Promise<ApiResponse> {
  const response = await service.api('POST', '/api/auth/login', { body: { username, password } });
  seen.push(response.text);
  return response;
}

beforeAll(async () => {
  directory = await startSlapd({ users, rootPassword: bindPassword });
  process.env.LDAP_PASSWORD = bindPassword;
  service = await startTestService({
    logger: createLogger('debug', { write: (line: string) => void (logs += line) }),
    config: {
      auth: { mode: 'ldap' },
      limits: { login_attempts_per_minute: 5 },
      ldap: {
        host: '127.0.0.1',
        port: directory.port,
        bind_dn: ldapRootDn,
        bind_password: '${LDAP_PASSWORD}',
        base_dn: ldapSuffix,
        user_filter: '(&(objectClass=inetOrgPerson)(uid=%s))',
        group_filter: `(&(objectClass=groupOfNames)(member=%s))`,
        group_roles: { 'k8s-admins': 'admin', 'k8s-operators': 'user', [`cn=k8s-viewers,${ldapGroupsDn}`]: 'viewer' },
      },
    },
  });
});
afterAll(async () => {
  await service?.close();
  await directory?.stop();
});

describe('LDAP login against a real slapd', () => {
  it('maps directory groups to roles (highest wins) and keeps the user with source ldap', async () => {
    const expected = { alice: 'admin', oscar: 'user', vera: 'viewer' } as const;
    for (const [uid, role] of Object.entries(expected)) {
      const response = await login(uid, users.find((user) => user.uid === uid)!.password);
      expect(response.status, response.text).toBe(200);
      expect(response.body).toMatchObject({ username: uid, role });
    }
    const listed = await service.api('GET', '/api/admin/users', { token: service.adminToken });
    const alice = (listed.body.items ?? listed.body).find((user: { username: string }) => user.username === 'alice');
    expect(alice).toMatchObject({ source: 'ldap', role: 'admin', email: 'alice@pilothouse.test' });
    expect((await service.deps.security.users.find('alice'))?.passwordHash).toBeNull();
  });

  it("issues session tokens that work on the API with the directory user's role", async () => {
    const token = (await login('vera', 'vera-pass-1')).body.token as string;
    const namespaces = await service.api('GET', '/api/k8s/namespaces', { token });
    expect(namespaces.status, namespaces.text).toBe(200);
    const me = await service.api('GET', '/api/auth/me', { token });
    expect(me.body).toMatchObject({ username: 'vera', role: 'viewer' });
    const forbidden = await service.api('GET', '/api/admin/users', { token });
    expect(forbidden.status).toBe(403);
  });

  it('gives wrong password and unknown user the same 401', async () => {
    const wrongPassword = await login('alice', 'not-her-password');
    const unknownUser = await login('nobody', 'alice-pass-1');
    expect(wrongPassword.status).toBe(401);
    expect(unknownUser.status).toBe(401);
    expect(unknownUser.body).toEqual(wrongPassword.body);
  });

  it('refuses a user in no mapped group with no_role_mapping', async () => {
    const response = await login('carl', 'carl-pass-1');
    expect(response.status).toBe(401);
    expect(response.body.details.reason).toBe('no_role_mapping');
    expect(await service.deps.security.users.find('carl')).toBeUndefined();
  });

  it('escapes filter input: wildcards and injected clauses match nobody', async () => {
    for (const username of ['*)(uid=*', '*', 'al*', 'alice)(|(uid=*']) {
      const response = await login(username, 'alice-pass-1');
      expect(response.status, username).toBe(401);
      expect(response.body.details?.reason).toBeUndefined();
    }
  });

  it('never lets an empty password through as an anonymous bind', async () => {
    // The test slapd allows unauthenticated binds (`allow bind_anon_dn`), as permissive directories do.
    const response = await login('alice', '');
    expect(response.status).toBe(401);
    expect(response.body.code).toBe('UNAUTHORIZED');
    expect(response.body.details?.reason).toBeUndefined();
  });

  it('audits LDAP logins like local ones (allow and deny with reasons)', async () => {
    const allowed = await service.api('GET', '/api/audit?action=login&user=alice', { token: service.adminToken });
    const decisions = allowed.body.items.map((item: { decision: string }) => item.decision);
    expect(decisions).toContain('allow');
    expect(decisions).toContain('deny');
    const carl = await service.api('GET', '/api/audit?action=login&user=carl', { token: service.adminToken });
    expect(carl.body.items[0]).toMatchObject({ action: 'login', decision: 'deny', details: { reason: 'no_role_mapping' } });
    seen.push(allowed.text, carl.text);
    expect(allowed.text).not.toContain('alice-pass-1');
  });

  it('keeps one identity per directory entry whatever the spelling: the lock follows it, one row in the user list', async () => {
    const first = await login('lena', 'lena-pass-1');
    expect(first.status, first.text).toBe(200);
    const locked = await service.api('POST', '/api/admin/lock', { token: service.adminToken, body: { username: 'lena' } });
    expect(locked.status, locked.text).toBe(200);
    for (const spelling of ['LENA', ' lena ', 'Lena', 'lena  ']) {
      const response = await login(spelling, 'lena-pass-1');
      expect(response.status, spelling).toBe(401);
      expect(response.body.details, spelling).toEqual({ reason: 'locked' });
    }
    await service.api('POST', '/api/admin/unlock', { token: service.adminToken, body: { username: 'lena' } });
    const mixed = await login('LeNa', 'lena-pass-1');
    expect(mixed.status, mixed.text).toBe(200);
    expect(mixed.body.username).toBe('lena');
    const me = await service.api('GET', '/api/auth/me', { token: mixed.body.token });
    expect(me.body.username).toBe('lena');
    const listed = await service.api('GET', '/api/admin/users', { token: service.adminToken });
    const names = listed.body.items.map((user: { username: string }) => user.username);
    expect(names.filter((name: string) => name.trim().toLowerCase() === 'lena')).toEqual(['lena']);
  });

  it('applies the brute-force limit to directory logins, counting every spelling of a name together', async () => {
    const spellings = ['oscar', 'OSCAR', ' oscar', 'Oscar ', 'oScAr'];
    for (const spelling of spellings) expect((await login(spelling, `guess-${spelling}`)).status).toBe(401);
    const throttled = await login('oscar', 'oscar-pass-1');
    expect(throttled.status).toBe(429);
    expect(throttled.body.code).toBe('RATE_LIMITED');
  });

  it('refuses with directory_unavailable when the directory is down, while the local admin still logs in', async () => {
    await directory.stop();
    const response = await login('alice', 'alice-pass-1');
    expect(response.status).toBe(401);
    expect(response.body.details.reason).toBe('directory_unavailable');
    const breakGlass = await login('admin', testAdminPassword);
    expect(breakGlass.status).toBe(200);
    expect(breakGlass.body.role).toBe('admin');
    expect(logs).toContain('LDAP directory unavailable');
    const audit = await service.api('GET', '/api/audit?action=login&user=alice', { token: service.adminToken });
    expect(audit.body.items[0]).toMatchObject({ decision: 'deny', details: { reason: 'directory_unavailable' } });
    seen.push(audit.text);
  });

  it('never shows the bind password in logs, audit or responses', () => {
    expect(logs.length).toBeGreaterThan(0);
    expect(logs).not.toContain(bindPassword);
    for (const text of seen) expect(text).not.toContain(bindPassword);
  });
});
