import { describe, expect, it } from 'vitest';
import { configSchema } from '../../config/schema.js';
import { isAppError } from '../../errors.js';
import { identityFromClaims } from './oidc-identity.js';

const settings = (oidc: Record<string, unknown> = {}) => configSchema.parse({ oidc }).oidc;

describe('identityFromClaims', () => {
  it('prefixes the preferred username and groups, and picks the highest mapped role', () => {
    const identity = identityFromClaims(
      { sub: 's1', preferred_username: 'alice', email: 'a@example.test', groups: ['dev', 'ops'] },
      settings({ role_mappings: { groups: { dev: 'user', ops: 'admin' } } }),
    );
    expect(identity).toEqual({ username: 'oidc:alice', groups: ['oidc:dev', 'oidc:ops'], role: 'admin', email: 'a@example.test' });
  });

  it('falls back to email, then sub, and maps user names too', () => {
    expect(identityFromClaims({ sub: 's1', email: 'b@example.test' }, settings({ default_role: 'viewer' })).username).toBe('oidc:b@example.test');
    expect(identityFromClaims({ sub: 's2' }, settings({ role_mappings: { users: { s2: 'user' } }, username_prefix: '' }))).toMatchObject({
      username: 's2',
      role: 'user',
    });
  });

  it('refuses a user no mapping names when there is no default role, naming the claim', () => {
    try {
      identityFromClaims({ sub: 's1', groups: ['nobody'] }, settings({ role_mappings: { groups: { dev: 'user' } } }));
      expect.unreachable();
    } catch (error) {
      expect(isAppError(error) && error.details).toMatchObject({ reason: 'no_role_mapping', claim: 'groups' });
    }
  });

  it('refuses a token without the configured username claim', () => {
    expect(() => identityFromClaims({ sub: 's1' }, settings({ username_claim: 'upn', default_role: 'viewer' }))).toThrow(/"upn" claim/);
  });

  it('keeps user and group names apart: a user named like the admin group is not an admin', () => {
    const mappings = settings({ role_mappings: { groups: { 'platform-admins': 'admin' }, users: { alice: 'user' } } });
    expect(() => identityFromClaims({ sub: 's3', preferred_username: 'platform-admins', groups: [] }, mappings)).toThrow(/no role is mapped/);
    expect(identityFromClaims({ sub: 's4', preferred_username: 'bob', groups: ['alice'] }, settings({ ...mappings, default_role: 'viewer' })).role).toBe(
      'viewer',
    );
    expect(identityFromClaims({ sub: 's5', preferred_username: 'constructor' }, settings({ default_role: 'viewer' })).role).toBe('viewer');
  });

  it('refuses system: names and groups, bare or once prefixed, naming the claim', () => {
    const refusal = (claims: Record<string, unknown>, oidc: Record<string, unknown> = {}): unknown => {
      try {
        identityFromClaims(claims, settings({ default_role: 'viewer', ...oidc }));
      } catch (error) {
        return isAppError(error) && { code: error.code, ...error.details };
      }
      return undefined;
    };
    expect(refusal({ sub: 's1', preferred_username: 'eve', groups: ['devs', 'system:masters'] })).toEqual({
      code: 'UNAUTHORIZED',
      reason: 'reserved_name',
      claim: 'groups',
    });
    expect(refusal({ sub: 's1', preferred_username: 'eve', groups: ['SYSTEM:masters'] })).toMatchObject({ reason: 'reserved_name' });
    expect(refusal({ sub: 's1', preferred_username: 'system:admin' }, { username_prefix: '' })).toMatchObject({
      reason: 'reserved_name',
      claim: 'preferred_username',
    });
    expect(refusal({ sub: 's1', preferred_username: 'tem:kube-scheduler' }, { username_prefix: 'sys' })).toMatchObject({ reason: 'reserved_name' });
    expect(refusal({ sub: 's1', preferred_username: 'eve', groups: ['devs'] })).toBeUndefined();
  });

  it('prefixes groups with groups_prefix, or username_prefix when it is unset', () => {
    const claims = { sub: 's1', preferred_username: 'alice', groups: ['devs'] };
    expect(identityFromClaims(claims, settings({ default_role: 'viewer', username_prefix: 'sso:' })).groups).toEqual(['sso:devs']);
    expect(identityFromClaims(claims, settings({ default_role: 'viewer', groups_prefix: 'sso-group:' }))).toMatchObject({
      username: 'oidc:alice',
      groups: ['sso-group:devs'],
    });
  });
});
