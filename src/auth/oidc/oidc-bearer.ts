import { createHash } from 'node:crypto';
import { decodeJwt, errors, jwtVerify, type JWTPayload } from 'jose';
import type { Clock } from '../../clock.js';
import { unauthorized, type AppError } from '../../errors.js';
import type { Principal } from '../../rbac/principal.js';
import type { AuthRequest, Authenticator } from '../sessions/authenticator.js';
import { bearerToken } from '../sessions/jwt-authenticator.js';
import { idTokenAlgorithms, type OidcProvider } from './oidc-client.js';
import type { OidcAccounts } from './oidc-sign-in.js';

function issuerOf(token: string): string | undefined {
  try {
    return decodeJwt(token).iss;
  } catch {
    return undefined;
  }
}

function verificationRefusal(error: unknown): AppError {
  if (error instanceof errors.JWTExpired) return unauthorized('ID token expired', { reason: 'expired' });
  if (error instanceof errors.JWTClaimValidationFailed) return unauthorized(`ID token ${error.claim} claim rejected`, { reason: `wrong_${error.claim}` });
  if (error instanceof errors.JWSSignatureVerificationFailed || error instanceof errors.JWKSNoMatchingKey) {
    return unauthorized("ID token signature does not verify with the issuer's keys", { reason: 'invalid_signature' });
  }
  return unauthorized('invalid ID token', { reason: 'invalid_token' });
}

/**
 * `--auth-mode oidc` authentication: Pilothouse's own session JWTs, and, like the API server's OIDC
 * authenticator, ID tokens of the configured issuer presented directly (`Authorization: Bearer`),
 * verified against the issuer's JWKS (refetched when an unknown key id appears, so key rotation works),
 * with audience `oidc.client_id` or one of `oidc.api_audiences` (and `azp` checked when there are several).
 * The first use of each ID token is audited as `login`; refusals always.
 */
export class OidcBearerAuthenticator implements Authenticator {
  private readonly seen = new Map<string, number>();

  constructor(
    private readonly provider: OidcProvider,
    private readonly accounts: OidcAccounts,
    private readonly sessions: Authenticator,
    private readonly clock: Clock,
  ) {}

  async authenticate(context: AuthRequest): Promise<Principal | undefined> {
    const token = bearerToken(context);
    if (!token) return undefined;
    if (issuerOf(token) !== this.provider.settings.issuer) return this.sessions.authenticate(context);
    const origin = { source: context.ip, requestId: context.state.requestId, flow: 'bearer' };
    const payload = await this.verify(token).catch((error: unknown) => this.accounts.refuse(origin, 'oidc', verificationRefusal(error)));
    const key = createHash('sha256').update(token).digest('hex');
    const identity = await this.accounts.account(payload as Record<string, unknown>, origin);
    const user = await this.accounts.user(identity.username);
    if (!this.seen.has(key)) this.firstUse(key, payload, () => this.accounts.allow(origin, identity.username, { token: key.slice(0, 16) }));
    return {
      username: identity.username,
      role: identity.role,
      roles: user?.roles ?? [],
      groups: identity.groups,
      identitySource: 'oidc',
      tokenExpiresAt: (payload.exp ?? 0) * 1000,
    };
  }

  private async verify(token: string): Promise<JWTPayload> {
    const { settings } = this.provider;
    const audiences = [settings.client_id, ...settings.api_audiences];
    const { payload } = await jwtVerify(token, this.provider.keys, {
      issuer: settings.issuer,
      audience: audiences,
      algorithms: idTokenAlgorithms,
      currentDate: new Date(this.clock()),
      requiredClaims: ['exp', 'iat', 'sub'],
    });
    if (Array.isArray(payload.aud) && payload.aud.length > 1 && payload.azp !== undefined && !audiences.includes(String(payload.azp))) {
      throw new errors.JWTClaimValidationFailed('unexpected "azp" claim value', payload, 'azp', 'check_failed');
    }
    return payload;
  }

  private firstUse(key: string, payload: JWTPayload, record: () => void): void {
    const now = this.clock();
    for (const [seenKey, expiresAt] of this.seen) if (expiresAt <= now) this.seen.delete(seenKey);
    if (this.seen.size < 10_000) this.seen.set(key, (payload.exp ?? 0) * 1000);
    record();
  }
}
