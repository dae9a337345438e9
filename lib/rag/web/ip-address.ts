import { isIP } from 'node:net';

/**
 * Address checks for outbound requests: is an IP literal publicly routable, or private, loopback,
 * link-local, unique-local, multicast, reserved or otherwise special (RFC 6890 and friends)?
 */

/** Parses a dotted-quad IPv4 address into a 32-bit unsigned number; undefined when it is not one. */
export function parseIpv4(address: string): number | undefined {
  const parts = address.split('.');
  if (parts.length !== 4) return undefined;
  let value = 0;
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part)) return undefined;
    const n = Number(part);
    if (n > 255) return undefined;
    value = value * 256 + n;
  }
  return value;
}

/** Parses an IPv6 address (with `::`, an embedded dotted IPv4 tail and/or a `%zone`) into eight 16-bit groups. */
export function parseIpv6(address: string): number[] | undefined {
  let text = address.replace(/^\[|\]$/g, '');
  const zone = text.indexOf('%');
  if (zone !== -1) text = text.slice(0, zone);
  if (isIP(text) !== 6) return undefined;
  const lastColon = text.lastIndexOf(':');
  const last = text.slice(lastColon + 1);
  if (last.includes('.')) {
    const v4 = parseIpv4(last);
    if (v4 === undefined) return undefined;
    text = `${text.slice(0, lastColon + 1)}${Math.floor(v4 / 65536).toString(16)}:${(v4 % 65536).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const parseGroups = (s: string): number[] => (s === '' ? [] : s.split(':').map((g) => (/^[0-9a-fA-F]{1,4}$/.test(g) ? parseInt(g, 16) : NaN)));
  const front = parseGroups(halves[0] ?? '');
  let groups = front;
  if (halves.length === 2) {
    const back = parseGroups(halves[1] ?? '');
    const missing = 8 - front.length - back.length;
    if (missing < 1) return undefined;
    groups = [...front, ...new Array<number>(missing).fill(0), ...back];
  }
  if (groups.length !== 8 || groups.some((g) => Number.isNaN(g) || g < 0 || g > 0xffff)) return undefined;
  return groups;
}

const V4_BLOCKED: readonly [string, number, string][] = [
  ['0.0.0.0', 8, 'this network'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'carrier-grade NAT'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'IETF protocol assignments'],
  ['192.0.2.0', 24, 'documentation'],
  ['192.88.99.0', 24, '6to4 relay anycast'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'benchmarking'],
  ['198.51.100.0', 24, 'documentation'],
  ['203.0.113.0', 24, 'documentation'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved'],
];

function v4Reason(value: number): string | undefined {
  for (const [base, bits, reason] of V4_BLOCKED) {
    const size = 2 ** (32 - bits);
    const start = parseIpv4(base) ?? 0;
    if (value >= start && value < start + size) return reason;
  }
  return undefined;
}

function v6Reason(g: number[]): string | undefined {
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = g;
  const embedded = (hi: number, lo: number): string | undefined => {
    const reason = v4Reason(hi * 65536 + lo);
    return reason === undefined ? undefined : `IPv4 ${reason}`;
  };
  const zeroPrefix = g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0;
  if (zeroPrefix && g5 === 0 && g6 === 0 && g7 === 0) return 'unspecified';
  if (zeroPrefix && g5 === 0 && g6 === 0 && g7 === 1) return 'loopback';
  // ::ffff:a.b.c.d (IPv4-mapped) and ::a.b.c.d (deprecated IPv4-compatible): judge the IPv4 address.
  if (zeroPrefix && (g5 === 0xffff || g5 === 0)) return embedded(g6, g7) ?? (g5 === 0 ? 'IPv4-compatible' : undefined);
  // ::ffff:0:a.b.c.d (IPv4-translated, RFC 2765).
  if (g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0xffff && g5 === 0) return embedded(g6, g7);
  // 64:ff9b::/96 NAT64 well-known prefix; 64:ff9b:1::/48 local-use NAT64.
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return embedded(g6, g7);
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 1) return 'local-use NAT64';
  if (g0 === 0x100 && g1 === 0 && g2 === 0 && g3 === 0) return 'discard-only';
  if (g0 === 0x2001 && g1 === 0xdb8) return 'documentation';
  if (g0 === 0x2001 && g1 === 0) return 'Teredo';
  if (g0 === 0x2001 && g1 < 0x200) return 'IETF protocol assignments';
  if (g0 === 0x2002) return embedded(g1, g2) ?? undefined;
  if ((g0 & 0xfe00) === 0xfc00) return 'unique-local';
  if ((g0 & 0xffc0) === 0xfe80) return 'link-local';
  if ((g0 & 0xffc0) === 0xfec0) return 'site-local';
  if ((g0 & 0xff00) === 0xff00) return 'multicast';
  if (g0 < 0x2000 || g0 > 0x3fff) return 'not global unicast';
  return undefined;
}

/**
 * Why an IP literal is not a public address (e.g. "loopback", "private", "IPv4 loopback" for
 * `::ffff:127.0.0.1`), or undefined when it is publicly routable. Anything that is not a valid IPv4
 * or IPv6 literal counts as not public ("not an IP address").
 */
export function nonPublicReason(address: string): string | undefined {
  const v4 = parseIpv4(address);
  if (v4 !== undefined) return v4Reason(v4);
  const v6 = parseIpv6(address);
  if (v6 !== undefined) return v6Reason(v6);
  return 'not an IP address';
}

/** True when `address` is private, loopback, link-local, unique-local, multicast, reserved or not an IP literal. */
export function isPrivateAddress(address: string): boolean {
  return nonPublicReason(address) !== undefined;
}
