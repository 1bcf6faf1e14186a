import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Whether the service may connect to an address to fetch an NFT image: only public unicast ones. The
 * special-purpose ranges come from ipaddr.js, which follows IANA's special-purpose registries (loopback,
 * private, link-local, CGNAT, multicast, broadcast, documentation, benchmarking, reserved, NAT64, 6to4,
 * Teredo, ORCHID, AS112, AMT, discard, …), so a range IANA adds is one dependency update away rather than
 * an edit to a list of our own that nobody rereads.
 *
 * IPv6 forms that carry an IPv4 address are judged by that address where a connection to them reaches it
 * (IPv4-mapped, IPv4-translated, NAT64's well-known prefix: a DNS64 resolver answers those for every
 * IPv4-only host, so refusing them would break IPv6-only clusters); tunnels and deprecated forms whose
 * embedded address is a relay or is only partly ours to check (6to4, Teredo, IPv4-compatible, NAT64's
 * local-use prefix) are refused outright. IPv6 outside 2000::/3 is not allocated for global unicast and
 * is refused too: ipaddr.js calls unallocated space, and the deprecated IPv4-compatible ::/96, "unicast".
 */
export function isPublicAddress(address: string): boolean {
  return addressRange(address) === 'unicast';
}

/** The address's range as ipaddr.js names it, or ours for the forms it does not single out (for logs). */
export function addressRange(address: string): string {
  // Only the canonical forms the resolver and the URL parser produce; ipaddr.js also takes 1.2.3 and 0x7f.1.
  if (isIP(address) === 0) return 'invalid';
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv4') return parsed.range();
  const v6 = parsed as ipaddr.IPv6;
  const range = v6.range();
  const embedded = embeddedIpv4(v6, range);
  if (embedded) {
    const inner = embedded.range();
    return inner === 'unicast' ? 'unicast' : `${range}(${inner})`;
  }
  if (range !== 'unicast') return range;
  if (v6.parts[0]! >> 13 !== 0b001) return v6.parts.slice(0, 6).every((p) => p === 0) ? 'ipv4Compatible' : 'unallocated';
  return 'unicast';
}

/** The IPv4 address a connection to this IPv6 address reaches, for the forms that translate to one. */
function embeddedIpv4(v6: ipaddr.IPv6, range: string): ipaddr.IPv4 | undefined {
  const p = v6.parts;
  const low = () => new ipaddr.IPv4([p[6]! >> 8, p[6]! & 0xff, p[7]! >> 8, p[7]! & 0xff]);
  if (range === 'ipv4Mapped' || range === 'rfc6145') return low();
  // 64:ff9b::/96 only; 64:ff9b:1::/48 (RFC 8215) is a local translator's, whatever it maps to.
  if (range === 'rfc6052' && p[2] === 0 && p[3] === 0 && p[4] === 0 && p[5] === 0) return low();
  return undefined;
}
