import { isIPv4, isIPv6 } from 'node:net';

/**
 * The address a client is limited by, from express's `req.ip` (which honours TRUST_PROXY): an IPv4
 * address as it is (also when IPv4-mapped), an IPv6 address by its /64. A subscriber is routinely given
 * a whole /64, so limiting single IPv6 addresses would let one client rotate through 2^64 of them.
 */
export function clientAddress(ip: string | undefined): string {
  if (!ip) return 'unknown';
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip);
  if (mapped) return mapped[1]!;
  if (isIPv4(ip) || !isIPv6(ip.split('%')[0]!)) return ip;
  return `${ipv6Groups(ip.split('%')[0]!).slice(0, 4).join(':')}::/64`;
}

/** The eight 16-bit groups of an IPv6 address, `::` expanded, in lowercase without leading zeros. */
function ipv6Groups(ip: string): string[] {
  const [head = '', tail] = ip.split('::');
  const split = (part: string) => (part ? part.split(':') : []);
  // An embedded IPv4 address (the last 32 bits) stands for two groups.
  const width = (groups: string[]) => groups.reduce((n, g) => n + (g.includes('.') ? 2 : 1), 0);
  const [h, t] = [split(head), split(tail ?? '')];
  const groups = tail === undefined ? h : [...h, ...Array<string>(8 - width(h) - width(t)).fill('0'), ...t];
  return groups.map((g) => (g.includes('.') ? g : parseInt(g, 16).toString(16)));
}

/**
 * The client's IP for a request express never saw (a WebSocket upgrade), with express's own compiled
 * `trust proxy` function: walk X-Forwarded-For from the nearest hop while the hop is trusted, as
 * express's `req.ip` (proxy-addr) does.
 */
export function upgradeClientIp(
  req: { socket: { remoteAddress?: string | undefined }; headers: Record<string, string | string[] | undefined> },
  trust: (address: string, hop: number) => boolean,
): string | undefined {
  const forwarded = req.headers['x-forwarded-for'];
  const hops = (Array.isArray(forwarded) ? forwarded.join(',') : forwarded ?? '')
    .split(',')
    .map((a) => a.trim())
    .filter(Boolean)
    .reverse();
  const chain = [req.socket.remoteAddress, ...hops];
  for (let i = 0; i < chain.length - 1; i++) {
    if (!chain[i] || !trust(chain[i]!, i)) return chain[i];
  }
  return chain[chain.length - 1];
}
