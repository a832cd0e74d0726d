import { describe, expect, it } from 'vitest';
import { allowedHostsFor, hostAllowed, hostNameOf } from './host-check.js';

describe('Host allowlist (ADR 0027)', () => {
  it('always answers IP literals and localhost, and names only when allowed', () => {
    for (const host of ['127.0.0.1:8080', '[::1]:8080', '10.0.0.7', 'localhost:3000', 'LOCALHOST', 'localhost.'])
      expect(hostAllowed(host, []), host).toBe(true);
    for (const host of ['evil.example', 'localhost.evil.example', '127.0.0.1.nip.io', '', 'a@b', 'a/b']) expect(hostAllowed(host, []), host).toBe(false);
    expect(hostAllowed(undefined, ['*'])).toBe(false);
  });

  it('matches configured names exactly, by `*.suffix`, or `*`', () => {
    expect(hostAllowed('Pilothouse.Example:443', ['pilothouse.example'])).toBe(true);
    expect(hostAllowed('pilothouse.example.evil.net', ['pilothouse.example'])).toBe(false);
    expect(hostAllowed('web.ops.svc.cluster.local', ['*.svc.cluster.local'])).toBe(true);
    expect(hostAllowed('svc.cluster.local', ['*.svc.cluster.local'])).toBe(false);
    expect(hostAllowed('anything.example', ['*'])).toBe(true);
    expect(hostNameOf('[::1]:80')).toBe('::1');
  });

  it('adds the bound name and the SSO redirect host to server.allowed_hosts', () => {
    const config = { server: { allowed_hosts: ['a.example'] }, oidc: { redirect_url: 'https://ph.example.com/api/auth/oidc/callback' } } as never;
    expect(allowedHostsFor(config, '0.0.0.0')).toEqual(['a.example', 'ph.example.com']);
    expect(allowedHostsFor(config, 'pilothouse.internal')).toEqual(['a.example', 'pilothouse.internal', 'ph.example.com']);
  });
});
