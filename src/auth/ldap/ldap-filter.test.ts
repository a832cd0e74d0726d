import { describe, expect, it } from 'vitest';
import { escapeFilterValue, fillFilter } from './ldap-filter.js';

describe('LDAP filter escaping (RFC 4515)', () => {
  it('escapes *, (, ), \\ and NUL', () => {
    expect(escapeFilterValue('*)(uid=*')).toBe('\\2a\\29\\28uid=\\2a');
    expect(escapeFilterValue('a\\b\u0000c')).toBe('a\\5cb\\00c');
    expect(escapeFilterValue('alice.smith@example.com')).toBe('alice.smith@example.com');
  });

  it('fills every %s with the escaped value', () => {
    expect(fillFilter('(&(objectClass=person)(|(uid=%s)(mail=%s)))', 'a*')).toBe('(&(objectClass=person)(|(uid=a\\2a)(mail=a\\2a)))');
    expect(fillFilter('(member=%s)', 'uid=x(1),ou=people')).toBe('(member=uid=x\\281\\29,ou=people)');
  });
});
