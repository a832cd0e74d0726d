import { describe, expect, it } from 'vitest';
import { SignInSeal, type PendingSignIn } from './oidc-sign-in-seal.js';

const key = new TextEncoder().encode('a-signing-key-of-at-least-32-characters!');
const seal = new SignInSeal(key);
const now = 1_800_000_000_000;
const pending = (state: string, expiresAt = now + 600_000): PendingSignIn => ({ state, verifier: 'v'.repeat(43), nonce: 'n'.repeat(43), expiresAt });

describe('the sealed browser sign-in', () => {
  it('opens its own cookie with the sign-ins it carries, and nothing an eavesdropper can read', async () => {
    const cookie = await seal.seal([pending('s1'), pending('s2')], now);
    expect(cookie).not.toContain('vvvv');
    expect(Buffer.from(cookie.split('.')[3] ?? '', 'base64url').toString('latin1')).not.toContain('vvvv');
    expect(await seal.open(cookie, now + 1_000)).toEqual({ sealed: 'valid', entries: [pending('s1'), pending('s2')] });
    expect(await new SignInSeal(key).open(cookie, now)).toMatchObject({ sealed: 'valid' });
  });

  it('refuses an altered cookie, one of another key and an expired one', async () => {
    const cookie = await seal.seal([pending('s1')], now);
    const parts = cookie.split('.');
    const ciphertext = parts[3] ?? '';
    parts[3] = `${ciphertext[0] === 'A' ? 'B' : 'A'}${ciphertext.slice(1)}`;
    expect(await seal.open(parts.join('.'), now)).toEqual({ sealed: 'invalid' });
    expect(await seal.open('not-a-cookie', now)).toEqual({ sealed: 'invalid' });
    const otherKey = new SignInSeal(new TextEncoder().encode('another-signing-key-of-32-characters-long'));
    expect(await otherKey.open(cookie, now)).toEqual({ sealed: 'invalid' });
    expect(await seal.open(cookie, now + 601_000)).toEqual({ sealed: 'expired' });
  });

  it('drops the expired sign-ins of a cookie that is still valid', async () => {
    const cookie = await seal.seal([pending('old', now + 1_000), pending('new')], now);
    expect(await seal.open(cookie, now + 2_000)).toEqual({ sealed: 'valid', entries: [pending('new')] });
  });

  it('knows the states it made and their expiry; refuses forged and altered ones', () => {
    const state = seal.newState(now + 600_000);
    expect(seal.stateExpiry(state)).toBe(now + 600_000);
    const [random, expiry, mac] = state.split('.');
    expect(seal.stateExpiry(`${random}.${Number(expiry) + 3600}.${mac}`)).toBeUndefined();
    expect(seal.stateExpiry('forged')).toBeUndefined();
    expect(new SignInSeal(new TextEncoder().encode('another-signing-key-of-32-characters-long')).stateExpiry(state)).toBeUndefined();
    expect(seal.newState(now)).not.toBe(seal.newState(now));
  });
});
