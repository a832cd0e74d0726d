import { describe, expect, it } from 'vitest';
import { ClientAddressResolver } from './client-address.js';

describe('ClientAddressResolver', () => {
  it('ignores X-Forwarded-For unless the peer is a trusted proxy', () => {
    const none = new ClientAddressResolver([]);
    expect(none.resolve('::ffff:10.0.0.5', '1.2.3.4')).toBe('10.0.0.5');
    const trusted = new ClientAddressResolver(['10.0.0.0/8', '::1']);
    expect(trusted.resolve('192.168.1.1', '1.2.3.4')).toBe('192.168.1.1');
    expect(trusted.resolve('10.1.2.3', '1.2.3.4')).toBe('1.2.3.4');
    expect(trusted.resolve('::1', '5.6.7.8, 1.2.3.4, 10.0.0.9')).toBe('1.2.3.4');
    expect(trusted.resolve('10.1.2.3', undefined)).toBe('10.1.2.3');
  });

  it('refuses entries that are not addresses', () => {
    expect(() => new ClientAddressResolver(['proxy.example.com'])).toThrow(/trusted_proxies/);
  });
});
