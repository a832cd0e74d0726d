import { describe, expect, it } from 'vitest';
import { TokenCache, tokenKey, unverifiedExpiry } from './token-cache.js';
import { interpretReview } from './token-review.js';

function cacheAt(start: number, maxEntries = 10): { cache: TokenCache<string>; advance(ms: number): void } {
  let now = start;
  return { cache: new TokenCache<string>({ ttlMs: 60_000, maxEntries, clock: () => now }), advance: (ms) => void (now += ms) };
}

describe('token cache', () => {
  it('keys by SHA-256, never the token', () => {
    expect(tokenKey('secret-token')).toMatch(/^[0-9a-f]{64}$/);
    expect(tokenKey('secret-token')).not.toContain('secret');
  });

  it('forgets entries after the TTL or the token expiry, whichever comes first', () => {
    const { cache, advance } = cacheAt(1_000_000);
    cache.set('a', 'A');
    cache.set('b', 'B', 1_000_000 + 10_000);
    advance(10_000);
    expect(cache.get('a')).toBe('A');
    expect(cache.get('b')).toBeUndefined();
    advance(50_000);
    expect(cache.get('a')).toBeUndefined();
  });

  it('stays bounded, dropping the oldest entry', () => {
    const { cache } = cacheAt(0, 2);
    cache.set('a', 'A');
    cache.set('b', 'B');
    cache.set('c', 'C');
    expect(cache.size).toBe(2);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('c')).toBe('C');
  });

  it('reads the exp claim of a JWT-shaped token without trusting anything else', () => {
    const payload = Buffer.from(JSON.stringify({ exp: 1_700_000_000 })).toString('base64url');
    expect(unverifiedExpiry(`header.${payload}.signature`)).toBe(1_700_000_000_000);
    expect(unverifiedExpiry('opaque-token')).toBeUndefined();
    expect(unverifiedExpiry('a.%%%.c')).toBeUndefined();
  });
});

describe('TokenReview status', () => {
  const user = { username: 'system:serviceaccount:ci:robot', groups: ['system:authenticated'] };

  it('accepts an authenticated user whose audiences overlap the configured ones', () => {
    expect(interpretReview({ authenticated: true, user, audiences: ['pilothouse'] }, ['pilothouse'])).toMatchObject({ authenticated: true, user });
    expect(interpretReview({ authenticated: true, user }, [])).toMatchObject({ authenticated: true });
  });

  it('refuses unauthenticated tokens and audiences that do not overlap', () => {
    expect(interpretReview({ authenticated: false }, [])).toEqual({ authenticated: false, reason: 'invalid_token' });
    expect(interpretReview({ authenticated: true, user, audiences: ['other'] }, ['pilothouse'])).toEqual({ authenticated: false, reason: 'wrong_audience' });
  });
});
