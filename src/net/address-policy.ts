import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { validation } from '../errors.js';

/** What an outbound URL set through the API (helm repositories and charts, LLM base URL) may be. */
export interface OutboundUrlPolicy {
  /** `http:` allowed besides `https:`. */
  allowHttp: boolean;
  /** Loopback, link-local and metadata addresses allowed. */
  allowPrivate: boolean;
  /** Endpoints that are never allowed (every served cluster's API server `https://host:port`, read at each check), whatever the flags. */
  forbiddenEndpoints: () => readonly string[];
  /** The config keys that relax the rules, named in refusals. */
  keys: { http: string; private: string };
}

/** Resolves a host name to every address it has (injectable for tests). */
export type Resolver = (host: string) => Promise<string[]>;

const systemResolver: Resolver = async (host) => (await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);

/** Addresses that reach this host or the cloud's metadata service rather than a remote server. */
const privateRanges = new BlockList();
privateRanges.addSubnet('127.0.0.0', 8, 'ipv4'); // loopback
privateRanges.addSubnet('0.0.0.0', 8, 'ipv4'); // "this host" (0.0.0.0 connects to loopback)
privateRanges.addSubnet('169.254.0.0', 16, 'ipv4'); // link-local, incl. 169.254.169.254 metadata
privateRanges.addAddress('::1', 'ipv6'); // loopback
privateRanges.addAddress('::', 'ipv6'); // unspecified
privateRanges.addSubnet('fe80::', 10, 'ipv6'); // link-local
privateRanges.addSubnet('fd00::', 8, 'ipv6'); // unique-local, incl. fd00:ec2::254 metadata

/** `::ffff:127.0.0.1` → `127.0.0.1`; other addresses unchanged. */
function unmapped(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return mapped?.[1] ?? address;
}

/** True for loopback, link-local, unique-local (fd00::/8) and unspecified addresses. */
export function isPrivateAddress(address: string): boolean {
  const plain = unmapped(address);
  const family = isIP(plain);
  if (family === 0) return false;
  return privateRanges.check(plain, family === 4 ? 'ipv4' : 'ipv6');
}

function hostOf(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '');
}

function portOf(url: URL): string {
  return url.port || (url.protocol === 'https:' ? '443' : '80');
}

async function addressesOf(host: string, resolve: Resolver): Promise<string[]> {
  if (isIP(host)) return [unmapped(host)];
  try {
    return (await resolve(host)).map(unmapped);
  } catch {
    throw validation(`the host ${host} does not resolve`, { reason: 'unresolvable_host', host });
  }
}

/** The `address:port` pairs of the forbidden endpoints (resolved). */
async function forbiddenPairs(endpoints: readonly string[], resolve: Resolver): Promise<Set<string>> {
  const pairs = new Set<string>();
  for (const endpoint of endpoints) {
    const url = URL.canParse(endpoint) ? new URL(endpoint) : undefined;
    if (!url) continue;
    const addresses = await addressesOf(hostOf(url), resolve).catch(() => [] as string[]);
    for (const address of addresses) pairs.add(`${address}|${portOf(url)}`);
  }
  return pairs;
}

/** The URL when its form is acceptable: parseable, https (or http when allowed), no credentials. */
function parsedUrl(text: string, policy: OutboundUrlPolicy, field: string): URL {
  if (!URL.canParse(text)) throw validation(`${field} is not a URL`, { field, reason: 'invalid_url' });
  const url = new URL(text);
  if (url.protocol !== 'https:' && !(policy.allowHttp && url.protocol === 'http:')) {
    throw validation(`${field} must be an https URL (${policy.keys.http} allows http)`, { field, reason: 'insecure_url' });
  }
  if (url.username || url.password) throw validation(`${field} must not carry credentials`, { field, reason: 'credentials_in_url' });
  return url;
}

/**
 * Checks a URL a caller wants the service to fetch: the scheme (https unless `allowHttp`), and every
 * address its host resolves to (DNS is resolved here): never the API server of a cluster Pilothouse serves, and no
 * loopback, link-local or metadata address unless `allowPrivate`. Throws VALIDATION_ERROR naming
 * the rule and the config key that relaxes it; `field` names the request field in details.
 */
export async function checkOutboundUrl(text: string, policy: OutboundUrlPolicy, field: string, resolve: Resolver = systemResolver): Promise<void> {
  const url = parsedUrl(text, policy, field);
  const addresses = await addressesOf(hostOf(url), resolve);
  const forbidden = await forbiddenPairs(policy.forbiddenEndpoints(), resolve);
  if (addresses.some((address) => forbidden.has(`${address}|${portOf(url)}`))) {
    throw validation(`${field} points at the Kubernetes API server`, { field, reason: 'api_server_address' });
  }
  const blocked = addresses.find((address) => isPrivateAddress(address));
  if (blocked && !policy.allowPrivate) {
    throw validation(`${field} resolves to ${blocked}, a loopback, link-local or metadata address (${policy.keys.private} allows it)`, {
      field,
      reason: 'private_address',
      address: blocked,
    });
  }
}
