import { BlockList, isIP } from 'node:net';

/** Strips the IPv4-mapped IPv6 prefix (`::ffff:10.0.0.1` → `10.0.0.1`). */
export function normalizeAddress(address: string): string {
  return address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
}

function addEntry(list: BlockList, entry: string): void {
  const [address = '', prefix] = entry.trim().split('/');
  const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
  if (isIP(address) === 0) throw new Error(`server.trusted_proxies: "${entry}" is not an IP address or CIDR range`);
  if (prefix === undefined) list.addAddress(address, family);
  else list.addSubnet(address, Number(prefix), family);
}

/**
 * The client address of a request: the peer address, or — only when the peer is one of
 * `server.trusted_proxies` (addresses or CIDR ranges) — the nearest untrusted hop of `X-Forwarded-For`.
 */
export class ClientAddressResolver {
  private readonly trusted = new BlockList();
  private readonly empty: boolean;

  constructor(trustedProxies: readonly string[]) {
    trustedProxies.forEach((entry) => addEntry(this.trusted, entry));
    this.empty = trustedProxies.length === 0;
  }

  isTrusted(address: string): boolean {
    if (this.empty || isIP(address) === 0) return false;
    return this.trusted.check(address, isIP(address) === 6 ? 'ipv6' : 'ipv4');
  }

  resolve(peerAddress: string | undefined, forwardedFor: string | undefined): string {
    const peer = normalizeAddress(peerAddress ?? '');
    if (!forwardedFor || !this.isTrusted(peer)) return peer;
    const hops = forwardedFor
      .split(',')
      .map((hop) => normalizeAddress(hop.trim()))
      .filter((hop) => hop !== '');
    for (let index = hops.length - 1; index >= 0; index -= 1) {
      const hop = hops[index] ?? '';
      if (!this.isTrusted(hop)) return hop;
    }
    return hops[0] ?? peer;
  }
}
