import { createServer, type Server } from 'node:https';
import { generateKeyPairSync, randomUUID, type JsonWebKey } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';
import { loopbackCertificate } from '../../src/tools/policy-proxy/loopback-certificate.js';

/** A user of the test identity provider: the dev login page accepts any password. */
export interface OidcTestUser {
  sub: string;
  preferred_username?: string;
  email?: string;
  groups?: string[];
}

export interface OidcTestClient {
  client_id: string;
  client_secret?: string;
  redirect_uris?: string[];
  post_logout_redirect_uris?: string[];
}

export interface OidcProviderHandle {
  issuer: string;
  /** PEM of the provider's self-signed TLS certificate (config `oidc.ca_file`). */
  caFile: string;
  /** Users by login name; change groups between sign-ins to test role changes. */
  users: Map<string, OidcTestUser>;
  /** The current signing key (private JWK), to mint tokens the provider itself would sign. */
  signingKey(): JsonWebKey & { kid: string };
  /** Restarts the provider on the same port with a new signing key (key rotation). */
  rotateKeys(): Promise<void>;
  close(): Promise<void>;
}

function newSigningKey(): JsonWebKey & { kid: string } {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { ...(privateKey.export({ format: 'jwk' }) as JsonWebKey), kid: randomUUID(), alg: 'RS256', use: 'sig' };
}

/**
 * A real OpenID Provider (`oidc-provider`, the certified Node implementation) over HTTPS on a loopback
 * port, with the given clients, the dev login/consent pages, the device flow and RP-initiated logout.
 */
export async function startOidcProvider(options: { clients: OidcTestClient[]; users: OidcTestUser[]; idTokenTtl?: number }): Promise<OidcProviderHandle> {
  const certificate = loopbackCertificate();
  const folder = mkdtempSync(join(tmpdir(), 'pilothouse-op-'));
  const caFile = join(folder, 'ca.pem');
  writeFileSync(caFile, certificate.cert);
  const users = new Map(options.users.map((user) => [user.preferred_username ?? user.sub, user]));
  let key = newSigningKey();
  let server: Server | undefined;
  let port = 0;

  const listen = async (): Promise<void> => {
    const issuer = `https://127.0.0.1:${port || 0}`;
    const provider = new Provider(port ? issuer : 'https://127.0.0.1', {
      clients: options.clients.map((client) => ({
        grant_types: ['authorization_code', 'urn:ietf:params:oauth:grant-type:device_code'],
        response_types: ['code'],
        token_endpoint_auth_method: client.client_secret ? 'client_secret_basic' : 'none',
        redirect_uris: [],
        ...client,
      })),
      jwks: { keys: [key] },
      features: { devInteractions: { enabled: true }, deviceFlow: { enabled: true }, rpInitiatedLogout: { enabled: true } },
      claims: { openid: ['sub'], profile: ['preferred_username'], email: ['email'], groups: ['groups'] },
      scopes: ['openid', 'profile', 'email', 'groups', 'offline_access'],
      ttl: { IdToken: options.idTokenTtl ?? 3600 },
      cookies: { keys: ['test-cookie-key'] },
      pkce: { required: () => true },
      async findAccount(_context: unknown, id: string) {
        const user = users.get(id) ?? [...users.values()].find((candidate) => candidate.sub === id);
        if (!user) return undefined;
        return { accountId: id, claims: async () => ({ ...user }) };
      },
      async loadExistingGrant(context: any) {
        // First-party test clients: consent is implied, so the flow is login → back to the client.
        const grantId = context.oidc.result?.consent?.grantId ?? context.oidc.session.grantIdFor(context.oidc.client.clientId);
        if (grantId) return context.oidc.provider.Grant.find(grantId);
        const grant = new context.oidc.provider.Grant({ clientId: context.oidc.client.clientId, accountId: context.oidc.session.accountId });
        grant.addOIDCScope('openid profile email groups');
        grant.addOIDCClaims(['preferred_username', 'email', 'groups']);
        await grant.save();
        return grant;
      },
    } as never);
    server = createServer({ cert: certificate.cert, key: certificate.key }, provider.callback());
    await new Promise<void>((resolve) => server!.listen(port, '127.0.0.1', resolve));
    if (!port) {
      // The issuer names the port: learn it, then restart on it with the right issuer.
      port = (server.address() as AddressInfo).port;
      await new Promise<void>((resolve) => server!.close(() => resolve()));
      await listen();
    }
  };
  await listen();

  const close = async (): Promise<void> => {
    server?.closeAllConnections();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  };
  return {
    issuer: `https://127.0.0.1:${port}`,
    caFile,
    users,
    signingKey: () => key,
    rotateKeys: async () => {
      await close();
      key = newSigningKey();
      await listen();
    },
    close,
  };
}
