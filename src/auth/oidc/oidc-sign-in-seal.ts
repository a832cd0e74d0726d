import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import { EncryptJWT, errors as joseErrors, jwtDecrypt } from 'jose';
import { z } from 'zod';

/** One browser sign-in under way, as the browser's sign-in cookie carries it (sealed). */
export interface PendingSignIn {
  state: string;
  /** The PKCE code verifier (S256): only the browser that started the sign-in can finish it. */
  verifier: string;
  nonce: string;
  /** Epoch ms. */
  expiresAt: number;
}

/** What opening a sign-in cookie found. */
export type OpenedCookie = { sealed: 'valid'; entries: readonly PendingSignIn[] } | { sealed: 'invalid' | 'expired' };

const pendingSchema = z.object({ state: z.string().max(256), verifier: z.string().max(256), nonce: z.string().max(256), expiresAt: z.number() });
const payloadSchema = z.object({ pending: z.array(pendingSchema).max(8) });
/** A state: 24 random bytes, its expiry (epoch seconds) and the service's MAC of both. */
const statePattern = /^([A-Za-z0-9_-]{32}\.(\d{1,12}))\.([A-Za-z0-9_-]{43})$/;
/** Sign-ins one browser may have under way at once (tabs): the oldest is dropped from the cookie beyond this. */
export const signInsPerBrowser = 4;

/**
 * Browser sign-ins without server state before the identity provider answers (security review four,
 * finding 6): the PKCE verifier, nonce and state live in the browser's sign-in cookie, encrypted and
 * authenticated (JWE `dir` + A256GCM, with an expiry) under a key derived from the JWT signing key, so
 * any replica sharing that key opens it; the `state` itself carries its expiry and a MAC, so a callback
 * with a state this service never made is refused without a cookie. Keys are derived with HKDF and
 * labels of their own: neither is the signing key.
 */
export class SignInSeal {
  private readonly cookieKey: Uint8Array;
  private readonly stateKey: Uint8Array;

  constructor(signingKey: Uint8Array) {
    this.cookieKey = new Uint8Array(hkdfSync('sha256', signingKey, 'pilothouse', 'oidc sign-in cookie', 32));
    this.stateKey = new Uint8Array(hkdfSync('sha256', signingKey, 'pilothouse', 'oidc sign-in state', 32));
  }

  /** A new `state` valid until `expiresAt` (epoch ms). */
  newState(expiresAt: number): string {
    const body = `${randomBytes(24).toString('base64url')}.${Math.ceil(expiresAt / 1000)}`;
    return `${body}.${this.mac(body)}`;
  }

  /** The expiry (epoch ms) of a state this service made; undefined for any other (forged, altered, malformed). */
  stateExpiry(state: string): number | undefined {
    const match = statePattern.exec(state);
    if (!match) return undefined;
    const expected = Buffer.from(this.mac(match[1] ?? ''));
    const given = Buffer.from(match[3] ?? '');
    return given.length === expected.length && timingSafeEqual(given, expected) ? Number(match[2]) * 1000 : undefined;
  }

  /** The cookie value carrying `entries`, expiring with the last of them. */
  async seal(entries: readonly PendingSignIn[], now: number): Promise<string> {
    const expiresAt = Math.max(...entries.map((entry) => entry.expiresAt));
    return new EncryptJWT({ pending: entries })
      .setProtectedHeader({ alg: 'dir', enc: 'A256GCM' })
      .setIssuedAt(Math.floor(now / 1000))
      .setExpirationTime(Math.ceil(expiresAt / 1000))
      .encrypt(this.cookieKey);
  }

  /** Opens a cookie value: its unexpired sign-ins, or why it cannot be used (altered, another key, expired). */
  async open(cookie: string, now: number): Promise<OpenedCookie> {
    try {
      const { payload } = await jwtDecrypt(cookie, this.cookieKey, {
        currentDate: new Date(now),
        keyManagementAlgorithms: ['dir'],
        contentEncryptionAlgorithms: ['A256GCM'],
      });
      const parsed = payloadSchema.safeParse(payload);
      if (!parsed.success) return { sealed: 'invalid' };
      return { sealed: 'valid', entries: parsed.data.pending.filter((entry) => entry.expiresAt > now) };
    } catch (error) {
      return { sealed: error instanceof joseErrors.JWTExpired ? 'expired' : 'invalid' };
    }
  }

  private mac(body: string): string {
    return createHmac('sha256', this.stateKey).update(body).digest('base64url');
  }
}
