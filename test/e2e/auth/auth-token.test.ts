import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/log.js';
import { clusterKubeconfig, useNamespace } from '../../helpers/cluster.js';
import { runKubectl } from '../../helpers/kubectl.js';
import { startTestService, type TestService } from '../../helpers/service.js';

const workspace = useNamespace('tok');
const elsewhere = useNamespace('tok-other');
const audience = 'pilothouse';
const logLines: string[] = [];
const tokens: Record<'admin' | 'viewer' | 'member' | 'unmapped' | 'otherAudience' | 'defaultAudience', string> = {
  admin: '',
  viewer: '',
  member: '',
  unmapped: '',
  otherAudience: '',
  defaultAudience: '',
};
let service: TestService;
/** Kept across a restart of the service (the lock must persist). */
const dataDir = mkdtempSync(join(tmpdir(), 'pilothouse-token-data-'));

const account = (namespace: string, name: string): string => `system:serviceaccount:${namespace}:${name}`;

/** `kubectl create token` for a ServiceAccount, for `tokenAudience` or the API server's default audience. */
async function createToken(namespace: string, name: string, tokenAudience?: string): Promise<string> {
  const audienceArgs = tokenAudience ? ['--audience', tokenAudience] : [];
  return (await runKubectl(clusterKubeconfig(), ['create', 'token', name, '-n', namespace, '--duration=1h', ...audienceArgs])).trim();
}

/** The service in token mode (namespace-wide role mappings), on `dataDir`. */
function startTokenService(): Promise<TestService> {
  const namespace = workspace.name;
  return startTestService({
    dataDir,
    authMode: 'token',
    logger: createLogger('debug', { write: (line: string) => void logLines.push(line) }),
    config: {
      auth: {
        token: {
          audiences: [audience],
          role_mappings: [
            { user: account(namespace, 'ph-admin'), role: 'admin' },
            { user: account(namespace, 'ph-viewer'), role: 'viewer' },
            // Every other ServiceAccount of the workspace (ph-admin and ph-viewer matched above: first match wins).
            { group: `system:serviceaccounts:${namespace}`, role: 'user' },
          ],
        },
      },
    },
  });
}

beforeAll(async () => {
  const namespace = workspace.name;
  for (const name of ['ph-admin', 'ph-viewer', 'ph-member']) await runKubectl(clusterKubeconfig(), ['create', 'serviceaccount', name, '-n', namespace]);
  await runKubectl(clusterKubeconfig(), ['create', 'serviceaccount', 'stranger', '-n', elsewhere.name]);
  tokens.admin = await createToken(namespace, 'ph-admin', audience);
  tokens.viewer = await createToken(namespace, 'ph-viewer', audience);
  tokens.member = await createToken(namespace, 'ph-member', audience);
  tokens.unmapped = await createToken(elsewhere.name, 'stranger', audience);
  tokens.otherAudience = await createToken(namespace, 'ph-admin', 'other');
  tokens.defaultAudience = await createToken(namespace, 'ph-admin');
  await runKubectl(clusterKubeconfig(), ['create', 'deployment', 'web', '--image=nginx', '-n', namespace]);
  service = await startTokenService();
});
afterAll(async () => {
  await service?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('token mode (Kubernetes bearer tokens checked by TokenReview)', () => {
  it('maps a token by user to its role; the principal is the Kubernetes user name', async () => {
    const me = await service.api('GET', '/api/auth/me', { token: tokens.admin });
    expect(me.status).toBe(200);
    expect(me.body).toEqual({ username: account(workspace.name, 'ph-admin'), role: 'admin', roles: [], expires_at: null, session_ends_at: null });
    const pods = await service.api('GET', `/api/k8s/pods?namespace=${workspace.name}`, { token: tokens.admin });
    expect(pods.status).toBe(200);
    const scaled = await service.api('POST', '/api/deployment/scale', { token: tokens.admin, body: { namespace: workspace.name, name: 'web', replicas: 2 } });
    expect(scaled.status).toBe(200);
  });

  it('maps a token by group when no user mapping comes first', async () => {
    const me = await service.api('GET', '/api/auth/me', { token: tokens.member });
    expect(me.body).toMatchObject({ username: account(workspace.name, 'ph-member'), role: 'user' });
    expect((await service.api('GET', `/api/k8s/pods?namespace=${workspace.name}`, { token: tokens.member })).status).toBe(200);
  });

  it('lets a viewer-mapped token read but not scale (403)', async () => {
    const me = await service.api('GET', '/api/auth/me', { token: tokens.viewer });
    expect(me.body).toMatchObject({ role: 'viewer' });
    expect((await service.api('GET', `/api/k8s/pods?namespace=${workspace.name}`, { token: tokens.viewer })).status).toBe(200);
    const scale = await service.api('POST', '/api/deployment/scale', { token: tokens.viewer, body: { namespace: workspace.name, name: 'web', replicas: 3 } });
    expect(scale.status).toBe(403);
    expect(scale.body.code).toBe('FORBIDDEN');
  });

  it('refuses a garbage token and no token with 401 UNAUTHORIZED (twice: the refusal is cached too)', async () => {
    for (let attempt = 0; attempt < 2; attempt++) {
      const garbage = await service.api('GET', '/api/k8s/pods', { token: 'not-a-kubernetes-token' });
      expect(garbage.status).toBe(401);
      expect(garbage.body).toEqual({ error: 'invalid token', code: 'UNAUTHORIZED', details: { reason: 'invalid_token' } });
    }
    expect((await service.api('GET', '/api/k8s/pods')).status).toBe(401);
  });

  it('refuses a valid token of an unmapped ServiceAccount with reason no_role_mapping', async () => {
    const response = await service.api('GET', '/api/auth/me', { token: tokens.unmapped });
    expect(response.status).toBe(401);
    expect(response.body.code).toBe('UNAUTHORIZED');
    expect(response.body.details).toEqual({ reason: 'no_role_mapping', username: account(elsewhere.name, 'stranger') });
  });

  it('refuses tokens made for another audience, or for the API server only, when audiences are configured', async () => {
    for (const token of [tokens.otherAudience, tokens.defaultAudience]) {
      const response = await service.api('GET', '/api/auth/me', { token });
      expect(response.status).toBe(401);
      expect(response.body.code).toBe('UNAUTHORIZED');
    }
  });

  it('does not use Pilothouse login, logout or refresh', async () => {
    const login = await service.api('POST', '/api/auth/login', { body: { password: 'anything' } });
    expect(login.status).toBe(400);
    expect(login.body).toMatchObject({ code: 'VALIDATION_ERROR', details: { authMode: 'token' } });
    expect(login.body.error).toContain('present a Kubernetes token');
    for (const path of ['/api/auth/logout', '/api/auth/refresh']) {
      expect((await service.api('POST', path, { token: tokens.member })).status).toBe(400);
    }
  });

  it('audits the first use of a token per cache window as login (mode token), and never stores or logs a token', async () => {
    const adminUser = account(workspace.name, 'ph-admin');
    const logins = await service.api('GET', `/api/audit?action=login&user=${encodeURIComponent(adminUser)}`, { token: tokens.admin });
    expect(logins.status).toBe(200);
    // Many requests above, one review and one audit row.
    expect(logins.body.items).toHaveLength(1);
    expect(logins.body.items[0]).toMatchObject({
      decision: 'allow',
      resource: `user/${adminUser}`,
      details: { mode: 'token', role: 'admin', tokenFingerprint: expect.stringMatching(/^[0-9a-f]{16}$/) },
    });
    const refused = await service.api('GET', `/api/audit?action=login&user=${encodeURIComponent(account(elsewhere.name, 'stranger'))}`, {
      token: tokens.admin,
    });
    expect(refused.body.items[0]).toMatchObject({
      decision: 'deny',
      outcome: 'refused: no_role_mapping',
      details: { mode: 'token', reason: 'no_role_mapping' },
    });
    const everything = await service.api('GET', '/api/audit?limit=1000', { token: tokens.admin });
    expect(logLines.length).toBeGreaterThan(0);
    for (const token of [...Object.values(tokens), 'not-a-kubernetes-token']) {
      expect(everything.text).not.toContain(token);
      expect(logLines.join('')).not.toContain(token);
    }
  });

  // Restarts the service: keep it last.
  it('locks a token identity: refused on its next request despite the cache, persists across a restart, unlock restores', async () => {
    const member = account(workspace.name, 'ph-member');
    expect((await service.api('GET', '/api/auth/me', { token: tokens.member })).status).toBe(200); // reviewed and cached
    const locked = await service.api('POST', '/api/admin/lock', { token: tokens.admin, body: { username: member } });
    expect(locked.status, locked.text).toBe(200);
    expect(locked.body).toMatchObject({ username: member, locked: true, source: 'token' });
    const refused = await service.api('GET', `/api/k8s/pods?namespace=${workspace.name}`, { token: tokens.member });
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ code: 'UNAUTHORIZED', details: { reason: 'locked' } });
    const audit = await service.api('GET', '/api/audit?action=lock', { token: tokens.admin });
    expect(audit.body.items[0]).toMatchObject({ resource: `user/${member}`, decision: 'allow', details: { locked: true } });

    // An identity that has not called yet can be locked ahead of its first request.
    const bot = 'system:serviceaccount:ci:bot';
    const ahead = await service.api('POST', '/api/admin/lock', { token: tokens.admin, body: { username: bot } });
    expect(ahead.status, ahead.text).toBe(200);
    const users = await service.api('GET', '/api/admin/users', { token: tokens.admin });
    expect(users.body.items).toEqual(expect.arrayContaining([expect.objectContaining({ username: bot, locked: true, source: 'token' })]));

    await service.close();
    service = await startTokenService();
    expect((await service.api('GET', '/api/auth/me', { token: tokens.member })).status).toBe(401);
    const unlocked = await service.api('POST', '/api/admin/unlock', { token: tokens.admin, body: { username: member } });
    expect(unlocked.status, unlocked.text).toBe(200);
    const again = await service.api('GET', '/api/auth/me', { token: tokens.member });
    expect(again.status).toBe(200);
    expect(again.body.username).toBe(member);
  });
});
