import ipaddr from 'ipaddr.js';

/**
 * Whether an address may receive webhooks: public unicast only. IPv4-mapped IPv6 addresses are judged
 * as the IPv4 address they carry, and the whole of ::/8 (unspecified, loopback, IPv4-compatible) is
 * refused. `allowLoopback` is the operator setting for local development and tests.
 */
export function isDeliverableAddress(address: string, options: { allowLoopback?: boolean } = {}): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6') {
    const v6 = parsed as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) parsed = v6.toIPv4Address();
    else if (v6.parts[0]! >> 8 === 0) return options.allowLoopback === true && v6.range() === 'loopback';
  }
  const range = parsed.range();
  if (range === 'loopback') return options.allowLoopback === true;
  return range === 'unicast';
}

/** A literal IP in a URL host ([::1] included), or undefined for a name. */
export function literalAddress(hostname: string): string | undefined {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return ipaddr.isValid(bare) && (bare.includes(':') || ipaddr.IPv4.isValidFourPartDecimal(bare)) ? bare : undefined;
}
