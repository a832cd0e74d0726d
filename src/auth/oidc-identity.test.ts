import { describe, expect, it } from 'vitest';
import { configSchema } from '../config/schema.js';
import { isAppError } from '../errors.js';
import { identityFromClaims } from './oidc-identity.js';

const settings = (oidc: Record<string, unknown> = {}) => configSchema.parse({ oidc }).oidc;

describe('identityFromClaims', () => {
  it('prefixes the preferred username and groups, and picks the highest mapped role', () => {
    const identity = identityFromClaims(
      { sub: 's1', preferred_username: 'alice', email: 'a@example.test', groups: ['dev', 'ops'] },
      settings({ role_mappings: { dev: 'user', ops: 'admin' } }),
    );
    expect(identity).toEqual({ username: 'oidc:alice', groups: ['oidc:dev', 'oidc:ops'], role: 'admin', email: 'a@example.test' });
  });

  it('falls back to email, then sub, and maps user names too', () => {
    expect(identityFromClaims({ sub: 's1', email: 'b@example.test' }, settings({ default_role: 'viewer' })).username).toBe('oidc:b@example.test');
    expect(identityFromClaims({ sub: 's2' }, settings({ role_mappings: { s2: 'user' }, username_prefix: '' }))).toMatchObject({ username: 's2', role: 'user' });
  });

  it('refuses a user no mapping names when there is no default role, naming the claim', () => {
    try {
      identityFromClaims({ sub: 's1', groups: ['nobody'] }, settings({ role_mappings: { dev: 'user' } }));
      expect.unreachable();
    } catch (error) {
      expect(isAppError(error) && error.details).toMatchObject({ reason: 'no_role_mapping', claim: 'groups' });
    }
  });

  it('refuses a token without the configured username claim', () => {
    expect(() => identityFromClaims({ sub: 's1' }, settings({ username_claim: 'upn', default_role: 'viewer' }))).toThrow(/"upn" claim/);
  });
});
