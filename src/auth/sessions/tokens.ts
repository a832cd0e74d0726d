import { errors, jwtVerify, SignJWT } from 'jose';
import { z } from 'zod';
import { roleNames, type RoleName } from '../../config/schema.js';
import { unauthorized } from '../../errors.js';
import type { Clock } from '../../clock.js';

const issuer = 'pilothouse';
const audience = 'pilothouse-api';

/** The claims Pilothouse puts in its JWTs. */
export const tokenClaimsSchema = z.object({
  sub: z.string().min(1),
  role: z.enum(roleNames),
  sid: z.string().min(1),
  iat: z.number(),
  exp: z.number(),
});
export type TokenClaims = z.infer<typeof tokenClaimsSchema>;

export interface IssuedToken {
  token: string;
  /** Expiry in milliseconds since the epoch. */
  expiresAt: number;
}

/** Signs and verifies HS256 JWTs; nothing else is accepted (no `none`, no other algorithm). */
export class TokenSigner {
  constructor(
    private readonly key: Uint8Array,
    private readonly durationMs: number,
    private readonly clock: Clock,
  ) {}

  /** A token for the subject, valid for the configured duration but never past `notAfter` (ms, the session's end). */
  async issue(subject: { username: string; role: RoleName; sessionId: string }, notAfter = Number.POSITIVE_INFINITY): Promise<IssuedToken> {
    const now = this.clock();
    const issuedAt = Math.floor(now / 1000);
    const expiresAt = Math.min((issuedAt + Math.ceil(this.durationMs / 1000)) * 1000, Math.floor(notAfter / 1000) * 1000);
    const token = await new SignJWT({ role: subject.role, sid: subject.sessionId })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(subject.username)
      .setIssuer(issuer)
      .setAudience(audience)
      .setIssuedAt(issuedAt)
      .setExpirationTime(expiresAt / 1000)
      .sign(this.key);
    return { token, expiresAt };
  }

  /** Verifies signature, algorithm, issuer, audience and expiry; UNAUTHORIZED otherwise. */
  async verify(token: string): Promise<TokenClaims> {
    try {
      const { payload } = await jwtVerify(token, this.key, {
        algorithms: ['HS256'],
        issuer,
        audience,
        currentDate: new Date(this.clock()),
        clockTolerance: 0,
      });
      const claims = tokenClaimsSchema.safeParse(payload);
      if (!claims.success) throw unauthorized('invalid token', { reason: 'invalid_claims' });
      return claims.data;
    } catch (error) {
      if (error instanceof errors.JWTExpired) throw unauthorized('token expired', { reason: 'expired' });
      if (error instanceof errors.JOSEError) throw unauthorized('invalid token', { reason: 'invalid_token' });
      throw error;
    }
  }
}
