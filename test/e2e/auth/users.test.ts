import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../helpers/service.js';

let service: TestService;
const admin = (): { token: string } => ({ token: service.adminToken });

beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => {
  await service?.close();
});

describe('users API', () => {
  it('creates, reads, changes and deletes users, never returning password hashes', async () => {
    const created = await service.api('POST', '/api/admin/users', {
      ...admin(),
      body: { username: 'carol', password: 'carol-password', role: 'user', email: 'carol@example.com' },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ username: 'carol', role: 'user', email: 'carol@example.com', enabled: true, locked: false, roles: [] });
    const patched = await service.api('PATCH', '/api/admin/users/carol', { ...admin(), body: { role: 'viewer', email: null } });
    expect(patched.body).toMatchObject({ role: 'viewer', email: null });
    const listed = await service.api('GET', '/api/admin/users', admin());
    expect(listed.body.items.map((user: { username: string }) => user.username)).toEqual(expect.arrayContaining(['admin', 'carol']));
    for (const text of [created.text, patched.text, listed.text, (await service.api('GET', '/api/admin/users/carol', admin())).text]) {
      expect(text).not.toMatch(/scrypt|password/);
    }
    expect((await service.api('DELETE', '/api/admin/users/carol', admin())).status).toBe(200);
    expect((await service.api('GET', '/api/admin/users/carol', admin())).status).toBe(404);
  });

  it('audits user creation, changes and deletion as execute, never with the password', async () => {
    await service.api('POST', '/api/admin/users', { ...admin(), body: { username: 'dave', password: 'dave-password-1', role: 'user' } });
    await service.api('PATCH', '/api/admin/users/dave', { ...admin(), body: { role: 'admin', password: 'dave-password-2' } });
    await service.api('DELETE', '/api/admin/users/dave', admin());
    const audit = service.deps.audit.query({ action: 'execute', limit: 100, offset: 0 }).items.filter((entry) => entry.resource === 'user/dave');
    expect(audit.map((entry) => [entry.user, entry.decision, entry.details.command])).toEqual([
      ['admin', 'allow', 'user delete dave'],
      ['admin', 'allow', 'user update dave --role admin --password [redacted]'],
      ['admin', 'allow', 'user create dave --role user --roles= --enabled=true --password [redacted]'],
    ]);
    expect(JSON.stringify(audit)).not.toContain('dave-password');
  });

  it('logs a changed password in and ends the sessions of the old one', async () => {
    const user = await service.createUser('viewer');
    await service.api('PATCH', `/api/admin/users/${user.username}`, { ...admin(), body: { password: 'a-brand-new-password' } });
    expect((await service.api('GET', '/api/auth/me', { token: user.token })).status).toBe(401);
    await expect(service.login(user.username, user.password)).rejects.toThrow(/401/);
    expect(await service.login(user.username, 'a-brand-new-password')).toBeTruthy();
  });

  it('refuses duplicates and invalid fields with 400 naming the field', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ username: 'admin', password: 'long-enough-1', role: 'viewer' }, 'username'],
      [{ username: 'dave', password: 'long-enough-1', role: 'viewer', email: 'not-an-email' }, 'email'],
      [{ username: 'dave', password: 'short', role: 'viewer' }, 'password'],
      [{ username: 'dave', password: 'long-enough-1', role: 'root' }, 'role'],
      [{ username: 'bad name!', password: 'long-enough-1', role: 'viewer' }, 'username'],
    ];
    for (const [body, field] of cases) {
      const response = await service.api('POST', '/api/admin/users', { ...admin(), body });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.code).toBe('VALIDATION_ERROR');
      expect(Object.keys(response.body.details.fields)).toContain(field);
    }
    const badPatch = await service.api('PATCH', '/api/admin/users/admin', { ...admin(), body: { email: 'nope' } });
    expect(badPatch.body.details.fields.email).toBeTruthy();
  });

  it('protects yourself and the last enabled admin', async () => {
    for (const [method, path, body, field] of [
      ['POST', '/api/admin/lock', { username: 'admin' }, 'username'],
      ['DELETE', '/api/admin/users/admin', undefined, 'username'],
      ['PATCH', '/api/admin/users/admin', { enabled: false }, 'enabled'],
      ['PATCH', '/api/admin/users/admin', { role: 'viewer' }, 'role'],
    ] as const) {
      const response = await service.api(method, path, { ...admin(), body });
      expect(response.status, `${method} ${path}`).toBe(400);
      expect(response.body.details.fields[field], `${method} ${path}`).toBeTruthy();
    }
    // With a second admin, the other admin may be demoted; the remaining one may not.
    const second = await service.createUser('admin');
    expect((await service.api('PATCH', `/api/admin/users/${second.username}`, { ...admin(), body: { role: 'user' } })).status).toBe(200);
    const lastOne = await service.api('POST', '/api/admin/lock', {
      token: (await service.createUser('admin', { username: 'deputy' })).token,
      body: { username: 'admin' },
    });
    expect(lastOne.status).toBe(200);
    const deputyToken = await service.login('deputy', 'password-of-deputy');
    expect((await service.api('POST', '/api/admin/unlock', { token: deputyToken, body: { username: 'admin' } })).status).toBe(200);
    service.adminToken = await service.login();
  });

  it('lists and ends sessions one by one or all at once', async () => {
    const user = await service.createUser('user');
    const second = await service.login(user.username, user.password);
    const sessions = await service.api('GET', `/api/admin/users/${user.username}/sessions`, admin());
    expect(sessions.body.total).toBe(2);
    const [newest] = sessions.body.items;
    expect(newest).toMatchObject({ revokedAt: null, source: expect.any(String) });
    const one = await service.api('DELETE', `/api/admin/users/${user.username}/sessions/${newest.id}`, admin());
    expect(one.body).toEqual({ revoked: 1 });
    expect((await service.api('GET', '/api/auth/me', { token: second })).status).toBe(401);
    expect((await service.api('GET', '/api/auth/me', { token: user.token })).status).toBe(200);
    expect((await service.api('DELETE', `/api/admin/users/${user.username}/sessions/unknown-id`, admin())).status).toBe(404);
    await service.api('DELETE', `/api/admin/users/${user.username}/sessions`, admin());
    expect((await service.api('GET', '/api/auth/me', { token: user.token })).status).toBe(401);
  });
});

describe('locks', () => {
  it('ends every session at once, is audited as lock, and unlocking is audited as lock with locked false', async () => {
    const user = await service.createUser('user');
    const other = await service.login(user.username, user.password);
    const locked = await service.api('POST', '/api/admin/lock', { ...admin(), body: { username: user.username } });
    expect(locked.status).toBe(200);
    expect(locked.body.locked).toBe(true);
    for (const token of [user.token, other]) expect((await service.api('GET', '/api/auth/me', { token })).status).toBe(401);
    const unlocked = await service.api('POST', '/api/admin/unlock', { ...admin(), body: { username: user.username } });
    expect(unlocked.body.locked).toBe(false);
    const audit = await service.api('GET', '/api/audit?action=lock&limit=2', admin());
    expect(audit.body.items[0]).toMatchObject({
      action: 'lock',
      user: 'admin',
      resource: `user/${user.username}`,
      decision: 'allow',
      details: { locked: false },
    });
    expect(audit.body.items[1]).toMatchObject({ action: 'lock', resource: `user/${user.username}`, details: { locked: true, sessionsRevoked: 2 } });
    expect(await service.login(user.username, user.password)).toBeTruthy();
  });

  it('answers 404 for unknown users', async () => {
    expect((await service.api('POST', '/api/admin/lock', { ...admin(), body: { username: 'nobody-at-all' } })).status).toBe(404);
  });
});

describe('restart', () => {
  it('keeps users, locks, sessions and the signing key across a restart on the same data dir', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'pilothouse-restart-'));
    try {
      const first = await startTestService({ dataDir });
      const keyBefore = readFileSync(join(dataDir, 'jwt-signing-key'), 'utf8');
      const kept = await first.createUser('viewer', { username: 'kept' });
      const locked = await first.createUser('user', { username: 'frozen' });
      await first.api('POST', '/api/admin/lock', { token: first.adminToken, body: { username: 'frozen' } });
      const adminTokenBefore = first.adminToken;
      await first.close();

      const second = await startTestService({ dataDir });
      try {
        expect(readFileSync(join(dataDir, 'jwt-signing-key'), 'utf8')).toBe(keyBefore);
        expect((await second.api('GET', '/api/auth/me', { token: adminTokenBefore })).status).toBe(200);
        expect((await second.api('GET', '/api/auth/me', { token: kept.token })).status).toBe(200);
        expect(await second.login('kept', kept.password)).toBeTruthy();
        const refused = await second.api('POST', '/api/auth/login', { body: { username: 'frozen', password: locked.password } });
        expect(refused.status).toBe(401);
        expect(refused.body.details.reason).toBe('locked');
        expect((await second.api('GET', '/api/auth/me', { token: locked.token })).status).toBe(401);
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
