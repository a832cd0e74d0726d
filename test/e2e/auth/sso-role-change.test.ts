import { importJWK, SignJWT, type JWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useNamespace, waitFor } from '../../helpers/cluster.js';
import { startOidcProvider, type OidcProviderHandle } from '../../helpers/oidc-provider.js';
import { followEvents } from '../../helpers/sse-follow.js';
import { startTestService, type TestService } from '../../helpers/service.js';

/**
 * Security review four, finding 5 for SSO users: the role the identity provider maps is refreshed at each sign-in
 * (and each ID token used as a bearer token); when it changes, what the user opened with the old role ends.
 */
const namespace = useNamespace('sso-role');
let op: OidcProviderHandle;
let service: TestService;

async function mint(groups: string[]): Promise<string> {
  const key = op.signingKey() as JWK & { kid: string };
  return new SignJWT({ sub: 'sub-dana', preferred_username: 'dana', groups, aud: 'pilothouse' })
    .setProtectedHeader({ alg: 'RS256', kid: key.kid })
    .setIssuer(op.issuer)
    .setIssuedAt()
    .setExpirationTime('10m')
    .sign(await importJWK(key, 'RS256'));
}

beforeAll(async () => {
  op = await startOidcProvider({
    clients: [{ client_id: 'pilothouse', client_secret: 'sso-role-secret' }],
    users: [{ sub: 'sub-dana', preferred_username: 'dana' }],
  });
  service = await startTestService({
    authMode: 'oidc',
    config: {
      oidc: {
        issuer: op.issuer,
        client_id: 'pilothouse',
        client_secret: 'sso-role-secret',
        redirect_url: 'http://127.0.0.1:1/api/auth/oidc/callback',
        ca_file: op.caFile,
        role_mappings: { groups: { devs: 'viewer', 'platform-admins': 'admin' } },
      },
    } as never,
  });
}, 120_000);

afterAll(async () => {
  await service?.close();
  await op?.close();
});

describe('an SSO user given another role by the identity provider', () => {
  it('loses the live list opened with the old role at their next sign-in', async () => {
    const asAdmin = await mint(['platform-admins']);
    expect((await service.api('GET', '/api/auth/me', { token: asAdmin })).body).toMatchObject({ username: 'oidc:dana', role: 'admin' });
    const response = await fetch(`${service.url}/api/k8s/pods/watch?namespace=${namespace.name}`, {
      headers: { Authorization: `Bearer ${asAdmin}`, Accept: 'text/event-stream' },
    });
    expect(response.status).toBe(200);
    const live = followEvents<{ code?: string; details?: { reason?: string } }>(response);
    try {
      await waitFor(() => live.events.some((event) => event.event === 'snapshot'));
      // The provider now puts dana in devs only: the next token maps to viewer.
      const asViewer = await mint(['devs']);
      expect((await service.api('GET', '/api/auth/me', { token: asViewer })).body).toMatchObject({ role: 'viewer' });
      await waitFor(() => live.ended());
      expect(live.events.at(-1)).toMatchObject({ event: 'error', data: { code: 'UNAUTHORIZED', details: { reason: 'role_changed' } } });
    } finally {
      await live.close();
    }
  });
});
