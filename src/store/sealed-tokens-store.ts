import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import type { SqlClient } from './sql-client.js';

/**
 * What a sealed token stands for: terminal tickets, used browser sign-in states (by `state`), device
 * sign-ins (by handle), and the device sign-ins under way of one client address (`oidc-device-from:<hash>`).
 */
export type SealedTokenKind = 'terminal' | 'oidc-login' | 'oidc-device' | `oidc-device-from:${string}`;

interface TokenRow {
  payload: string;
  expires_at: number | string;
}

const hash = (label: string, kind: SealedTokenKind, value: string): Buffer => createHash('sha256').update(`${label}\0${kind}\0${value}`).digest();

function seal(kind: SealedTokenKind, value: string, payload: unknown): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', hash('key', kind, value), iv);
  const sealed = Buffer.concat([cipher.update(JSON.stringify(payload), 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64');
}

function unseal<T>(kind: SealedTokenKind, value: string, payload: string): T {
  const bytes = Buffer.from(payload, 'base64');
  const decipher = createDecipheriv('aes-256-gcm', hash('key', kind, value), bytes.subarray(0, 12));
  decipher.setAuthTag(bytes.subarray(12, 28));
  return JSON.parse(Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8')) as T;
}

/**
 * Short-lived values a client redeems on any replica (ADR 0032): the only SQL for `sealed_tokens`.
 * A row is stored under a hash of the value and its payload is sealed (AES-256-GCM) with a key
 * derived from the value, so whoever reads the database can neither redeem a token nor read what it
 * carries (a terminal ticket carries the caller's Authorization header). {@link take} is one
 * conditional DELETE: a token is redeemed once, on whichever replica asks first.
 */
export class SealedTokensStore {
  constructor(private readonly database: SqlClient) {}

  /** Stores (or replaces) the payload of `value` until `expiresAt` (epoch ms). */
  async put(kind: SealedTokenKind, value: string, payload: unknown, expiresAt: number): Promise<void> {
    await this.database.run(
      `INSERT INTO sealed_tokens (id, kind, payload, expires_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET payload = excluded.payload, expires_at = excluded.expires_at`,
      [hash('id', kind, value).toString('base64url'), kind, seal(kind, value, payload), expiresAt],
    );
  }

  /**
   * Records `value` as used until `expiresAt`, once across replicas (one conditional INSERT): true for the
   * first caller, false when it was recorded already.
   */
  async claim(kind: SealedTokenKind, value: string, expiresAt: number): Promise<boolean> {
    const changed = await this.database.run('INSERT INTO sealed_tokens (id, kind, payload, expires_at) VALUES (?, ?, ?, ?) ON CONFLICT (id) DO NOTHING', [
      hash('id', kind, value).toString('base64url'),
      kind,
      seal(kind, value, { claimed: true }),
      expiresAt,
    ]);
    return changed === 1;
  }

  /** Redeems `value` once: its payload, or undefined when unknown, already taken or expired at `now`. */
  async take<T>(kind: SealedTokenKind, value: string, now: number): Promise<T | undefined> {
    const [row] = await this.database.query<TokenRow>('DELETE FROM sealed_tokens WHERE id = ? AND kind = ? RETURNING payload, expires_at', [
      hash('id', kind, value).toString('base64url'),
      kind,
    ]);
    return row && Number(row.expires_at) > now ? unseal<T>(kind, value, row.payload) : undefined;
  }

  /** Reads `value`'s payload without redeeming it; undefined when unknown or expired at `now`. */
  async peek<T>(kind: SealedTokenKind, value: string, now: number): Promise<T | undefined> {
    const [row] = await this.database.query<TokenRow>('SELECT payload, expires_at FROM sealed_tokens WHERE id = ? AND kind = ? AND expires_at > ?', [
      hash('id', kind, value).toString('base64url'),
      kind,
      now,
    ]);
    return row ? unseal<T>(kind, value, row.payload) : undefined;
  }

  /** How many of `kind` are live at `now` (a cap on what unauthenticated callers may store). */
  async count(kind: SealedTokenKind, now: number): Promise<number> {
    const [row] = await this.database.query<{ count: number | string }>('SELECT COUNT(*) AS count FROM sealed_tokens WHERE kind = ? AND expires_at > ?', [
      kind,
      now,
    ]);
    return Number(row?.count ?? 0);
  }

  /** Deletes every token expired at `now`. */
  async prune(now: number): Promise<number> {
    return this.database.run('DELETE FROM sealed_tokens WHERE expires_at <= ?', [now]);
  }
}
