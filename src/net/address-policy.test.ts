import { describe, expect, it } from 'vitest';
import { AppError } from '../errors.js';
import { checkOutboundUrl, isPrivateAddress, type OutboundUrlPolicy, type Resolver } from './address-policy.js';

const strict: OutboundUrlPolicy = {
  allowHttp: false,
  allowPrivate: false,
  forbiddenEndpoints: () => ['https://kube.example:6443'],
  keys: { http: 'helm.allow_http', private: 'helm.allow_private_urls' },
};
const names: Record<string, string[]> = {
  'charts.example': ['93.184.216.34'],
  'rebind.example': ['93.184.216.34', '169.254.169.254'],
  'kube.example': ['10.0.0.1'],
  'metadata.example': ['fd00:ec2::254'],
};
const resolver: Resolver = async (host) => {
  const found = names[host];
  if (!found) throw new Error('ENOTFOUND');
  return found;
};

async function reason(url: string, policy: OutboundUrlPolicy = strict): Promise<string | undefined> {
  try {
    await checkOutboundUrl(url, policy, 'url', resolver);
    return undefined;
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return String(error.details.reason);
  }
}

describe('outbound URL policy', () => {
  it('classifies private addresses, IPv4-mapped ones included', () => {
    for (const address of ['127.0.0.1', '127.8.9.10', '169.254.169.254', '::1', 'fe80::1', 'fd00:ec2::254', '::ffff:127.0.0.1', '0.0.0.0'])
      expect(isPrivateAddress(address), address).toBe(true);
    for (const address of ['93.184.216.34', '10.1.2.3', '2001:db8::1', 'not-an-address']) expect(isPrivateAddress(address), address).toBe(false);
  });

  it('allows https to a public host, refuses http unless allowed', async () => {
    expect(await reason('https://charts.example/stable')).toBeUndefined();
    expect(await reason('http://charts.example/stable')).toBe('insecure_url');
    expect(await reason('http://charts.example/stable', { ...strict, allowHttp: true })).toBeUndefined();
    expect(await reason('ftp://charts.example/')).toBe('insecure_url');
    expect(await reason('https://user:pw@charts.example/')).toBe('credentials_in_url');
  });

  it('refuses loopback, link-local and metadata addresses by any spelling, unless allowed', async () => {
    for (const url of [
      'https://127.0.0.1/',
      'https://[::1]/',
      'https://169.254.169.254/latest',
      'https://metadata.example/',
      'https://rebind.example/',
      'https://[::ffff:127.0.0.1]/',
    ]) {
      expect(await reason(url), url).toBe('private_address');
      expect(await reason(url, { ...strict, allowPrivate: true }), url).toBeUndefined();
    }
    expect(await reason('https://nowhere.example/')).toBe('unresolvable_host');
  });

  it('never allows the API server endpoint', async () => {
    expect(await reason('https://kube.example:6443/api', { ...strict, allowPrivate: true })).toBe('api_server_address');
    expect(await reason('https://10.0.0.1:6443/', { ...strict, allowPrivate: true })).toBe('api_server_address');
    expect(await reason('https://10.0.0.1:8443/')).toBeUndefined();
  });
});
