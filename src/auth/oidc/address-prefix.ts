import { isIP } from 'node:net';

/** The eight 16-bit groups of an IPv6 address (`::` expanded, an IPv4 tail as two groups); undefined when it is none. */
function ipv6Groups(address: string): number[] | undefined {
  const bare = address.split('%')[0] ?? '';
  if (isIP(bare) !== 6) return undefined;
  const [head = '', tail] = bare.split('::');
  const words = (part: string): string[] => (part === '' ? [] : part.split(':'));
  const toGroups = (part: string[]): number[] =>
    part.flatMap((word) => {
      if (!word.includes('.')) return [Number.parseInt(word, 16)];
      const [a = 0, b = 0, c = 0, d = 0] = word.split('.').map(Number);
      return [(a << 8) | b, (c << 8) | d];
    });
  const start = toGroups(words(head));
  const end = tail === undefined ? [] : toGroups(words(tail));
  return [...start, ...Array<number>(8 - start.length - end.length).fill(0), ...end];
}

/**
 * The network a client address counts under for per-client caps: an IPv4 address itself, an IPv6
 * address by its /64 (one host commonly holds a whole /64, so counting single IPv6 addresses would let
 * one client count as many).
 */
export function clientNetwork(address: string): string {
  const groups = ipv6Groups(address);
  if (!groups) return address;
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(':')}::/64`;
}
