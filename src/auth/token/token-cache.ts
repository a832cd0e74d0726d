import { createHash } from 'node:crypto';
import type { Clock } from '../../clock.js';

/** The cache key of a token: its SHA-256 (hex). The token itself is never kept. */
export function tokenKey(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * The `exp` claim of a JWT-shaped token in ms, read WITHOUT verifying it: used only to make a
 * cache entry end no later than the token does (the TokenReview is what vouches for the token).
 */
export function unverifiedExpiry(token: string): number | undefined {
  const payload = token.split('.')[1];
  if (!payload) return undefined;
  try {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { exp?: unknown };
    return typeof claims.exp === 'number' ? claims.exp * 1000 : undefined;
  } catch {
    return undefined;
  }
}

export interface TokenCacheSettings {
  /** How long an entry lives (0 turns the cache off). */
  ttlMs: number;
  /** At most this many entries; the oldest goes first. */
  maxEntries: number;
  clock: Clock;
}

/** A small, bounded time-to-live cache of review outcomes keyed by `tokenKey`. */
export class TokenCache<T> {
  private readonly entries = new Map<string, { value: T; expiresAt: number }>();

  constructor(private readonly settings: TokenCacheSettings) {}

  get(key: string): T | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt > this.settings.clock()) return entry.value;
    this.entries.delete(key);
    return undefined;
  }

  /** Stores `value` for the TTL, or until `notAfter` (ms) when that comes first. */
  set(key: string, value: T, notAfter?: number): void {
    const expiresAt = Math.min(this.settings.clock() + this.settings.ttlMs, notAfter ?? Number.POSITIVE_INFINITY);
    if (expiresAt <= this.settings.clock()) return;
    this.entries.delete(key);
    while (this.entries.size >= this.settings.maxEntries) this.evictOldest();
    this.entries.set(key, { value, expiresAt });
  }

  get size(): number {
    return this.entries.size;
  }

  private evictOldest(): void {
    const oldest = this.entries.keys().next();
    if (!oldest.done) this.entries.delete(oldest.value);
  }
}
