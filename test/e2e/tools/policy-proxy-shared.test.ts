import { request } from 'node:https';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RoleName } from '../../../src/config/schema.js';
import type { Principal } from '../../../src/rbac/principal.js';
import type { ToolClusterSession } from '../../../src/tools/types.js';
import { uniqueName } from '../../helpers/cluster.js';
import { startTestService, type TestService } from '../../helpers/service.js';

// What the policy proxies of one service share to stay cheap (one keep-alive pool to the API server, one
// TLS certificate for an hour) must never share an identity: each call keeps its own one-time token, and
// the upstream connections reused across calls carry each call's own impersonation.
let service: TestService;
const prefix = uniqueName('shared');
const identities: Record<RoleName, string> = { viewer: `${prefix}-viewer`, user: `${prefix}-user`, admin: `${prefix}-admin` };
const principal = (role: RoleName): Principal => ({ username: `shared-${role}`, role, roles: [] });

function endpointOf(session: ToolClusterSession): { url: string; ca: string; token: string } {
  const text = readFileSync(session.kubeconfigPath, 'utf8');
  const field = (name: string): string => JSON.parse(new RegExp(`${name}: ("[^"]+")`).exec(text)?.[1] ?? '""') as string;
  const ca = Buffer.from(/certificate-authority-data: (\S+)/.exec(text)?.[1] ?? '', 'base64').toString();
  return { url: field('server'), ca, token: field('token') };
}

/** GET `path` on a proxy (trusting its certificate) with a bearer token; the status and body. */
function get(endpoint: { url: string; ca: string }, token: string, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = request(`${endpoint.url}${path}`, { ca: endpoint.ca, headers: { Authorization: `Bearer ${token}` }, agent: false }, (answer) => {
      let body = '';
      answer.setEncoding('utf8');
      answer.on('data', (chunk: string) => (body += chunk));
      answer.on('end', () => resolve({ status: answer.statusCode ?? 0, body }));
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

/** Who the API server saw: a SelfSubjectReview through the proxy. */
async function whoami(endpoint: { url: string; ca: string; token: string }): Promise<string> {
  return new Promise((resolve, reject) => {
    const body = JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' });
    const outgoing = request(
      `${endpoint.url}/apis/authentication.k8s.io/v1/selfsubjectreviews`,
      { method: 'POST', ca: endpoint.ca, headers: { Authorization: `Bearer ${endpoint.token}`, 'Content-Type': 'application/json' }, agent: false },
      (answer) => {
        let text = '';
        answer.setEncoding('utf8');
        answer.on('data', (chunk: string) => (text += chunk));
        answer.on('end', () => resolve(String(JSON.parse(text)?.status?.userInfo?.username ?? `status ${answer.statusCode}`)));
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

beforeAll(async () => {
  service = await startTestService({
    config: { authorization: { impersonation: { enabled: true, mappings: identities } } },
  });
});

afterAll(async () => {
  await service?.close();
});

describe('policy proxies of one service', () => {
  it('forward concurrent calls of different callers over the shared upstream pool, each as its own identity', async () => {
    // viewer may not create the SelfSubjectReview (policy): user and admin, twice each.
    const roles: RoleName[] = ['user', 'admin', 'user', 'admin'];
    const sessions = await Promise.all(roles.map((role) => service.deps.proxyGateway.open({ principal: principal(role), mode: 'approved' })));
    try {
      const endpoints = sessions.map(endpointOf);
      // Eight rounds of all four at once, so that pooled connections are handed from one caller to another.
      for (let round = 0; round < 8; round += 1) {
        const seen = await Promise.all(endpoints.map((endpoint) => whoami(endpoint)));
        expect(seen).toEqual(roles.map((role) => identities[role]));
      }
    } finally {
      await Promise.all(sessions.map((session) => session.close()));
    }
  });

  it('serve one certificate but take only their own call’s token, and none after the call closed', async () => {
    const first = await service.deps.proxyGateway.open({ principal: principal('admin'), mode: 'read' });
    const second = await service.deps.proxyGateway.open({ principal: principal('user'), mode: 'read' });
    const [a, b] = [endpointOf(first), endpointOf(second)];
    try {
      expect(a.ca).toBe(b.ca);
      expect(a.token).not.toBe(b.token);
      expect(a.url).not.toBe(b.url);
      expect((await get(a, a.token, '/api')).status).toBe(200);
      expect((await get(b, a.token, '/api')).status).toBe(401);
      expect((await get(a, b.token, '/api')).status).toBe(401);
    } finally {
      await first.close();
    }
    try {
      await expect(get(a, a.token, '/api')).rejects.toThrow();
      expect((await get(b, b.token, '/api')).status).toBe(200);
    } finally {
      await second.close();
    }
  });
});
