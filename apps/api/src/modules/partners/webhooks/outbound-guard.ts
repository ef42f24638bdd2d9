import dns from 'node:dns';
import net from 'node:net';
import type { LookupFunction } from 'node:net';
import { webhookHttpUrl } from '@attestly/contracts';
import { NON_PUBLIC_V4 } from '../../../lib/ip-ranges';

/**
 * Outbound safety for webhook deliveries (SSRF): a partner chooses the URL, so the server must not be turned into
 * a way to reach its own network. Private, loopback, link-local (cloud metadata lives there), shared, reserved and
 * multicast addresses are refused — checked on the address actually resolved at connect time (a custom `lookup`),
 * so a name that resolves differently later (DNS rebinding) is caught too. IPv6 forms that carry an IPv4 address
 * (IPv4-compatible, IPv4-mapped, SIIT, NAT64, 6to4, Teredo) are judged by the IPv4 addresses they carry. The
 * operator may list `host:port` pairs or `CIDR:port` in ATTESTLY_WEBHOOK_ALLOWLIST (development, on-premise
 * receivers): a listed pair is reachable, over plain http too, and nothing else on that host.
 */
const BLOCKED_V4 = [
  ...NON_PUBLIC_V4,
  // Documentation (RFC 5737) and the deprecated 6to4 relay anycast (RFC 7526): no receiver lives there either.
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
] as const;
/** Ranges refused whatever they carry; the forms that carry an IPv4 address are judged in `embeddedIpv4`. */
const BLOCKED_V6 = [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  // IETF protocol assignments, Teredo (2001::/32) among them.
  ['2001::', 23],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const;

const blocked = new net.BlockList();
for (const [address, prefix] of BLOCKED_V4) blocked.addSubnet(address, prefix, 'ipv4');
for (const [address, prefix] of BLOCKED_V6) blocked.addSubnet(address, prefix, 'ipv6');

/** The eight 16-bit groups of a valid IPv6 address (a trailing dotted quad and a zone id allowed). */
function ipv6Groups(address: string): number[] {
  const text = address.split('%')[0] as string;
  const groups = (part: string): number[] =>
    part === ''
      ? []
      : part.split(':').flatMap((group) => {
          if (!group.includes('.')) return [parseInt(group, 16)];
          const [a = 0, b = 0, c = 0, d = 0] = group.split('.').map(Number);
          return [(a << 8) | b, (c << 8) | d];
        });
  const [head = '', tail] = text.split('::');
  if (tail === undefined) return groups(head);
  const front = groups(head);
  const back = groups(tail);
  return [...front, ...Array<number>(8 - front.length - back.length).fill(0), ...back];
}

/**
 * The IPv4 addresses an IPv6 address carries, where a packet to it may end up at (or be translated to) that IPv4
 * address: IPv4-compatible `::a.b.c.d` and IPv4-mapped `::ffff:a.b.c.d` (RFC 4291 §2.5.5), SIIT `::ffff:0:a.b.c.d`
 * (RFC 2765 §2.1), NAT64 `64:ff9b::a.b.c.d` (RFC 6052), 6to4 `2002:AABB:CCDD::` (RFC 3056) and Teredo's server and
 * (inverted) client addresses (RFC 4380 §4).
 */
export function embeddedIpv4(address: string): string[] {
  const g = ipv6Groups(address);
  const v4 = (high: number, low: number) => `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
  const zero = (from: number, to: number) => g.slice(from, to).every((group) => group === 0);
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = g;
  if (zero(0, 5) && (g5 === 0 || g5 === 0xffff)) return [v4(g6, g7)];
  if (zero(0, 4) && g4 === 0xffff && g5 === 0) return [v4(g6, g7)];
  if (g0 === 0x64 && g1 === 0xff9b && zero(2, 6)) return [v4(g6, g7)];
  if (g0 === 0x2002) return [v4(g1, g2)];
  if (g0 === 0x2001 && g1 === 0) return [v4(g2, g3), v4(g6 ^ 0xffff, g7 ^ 0xffff)];
  return [];
}

export function isPublicAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 4) return !blocked.check(address, 'ipv4');
  if (family !== 6) return false;
  const bare = address.split('%')[0] as string;
  if (blocked.check(bare, 'ipv6')) return false;
  return embeddedIpv4(bare).every((v4) => !blocked.check(v4, 'ipv4'));
}

/** One allowlist entry: a host name, or a network (one address is a /32 or /128), and the one port it opens. */
interface AllowlistEntry {
  host: string | null;
  network: net.BlockList | null;
  port: number;
}

export interface OutboundAllowlist {
  entries: AllowlistEntry[];
}

const HOST_NAME = /^(?=.{1,253}$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/i;

/**
 * Reads one ATTESTLY_WEBHOOK_ALLOWLIST entry: `host:port`, `a.b.c.d:port`, `a.b.c.d/nn:port`, `[v6]:port` or
 * `[v6/nn]:port`. Either the entry or what is wrong with it, in words an operator can act on.
 */
function readEntry(raw: string): { entry: AllowlistEntry } | { problem: string } {
  const text = raw.trim().toLowerCase();
  const example = 'e.g. hooks.internal:8443, 10.0.0.0/8:443 or [fd00::1]:8443';
  if (text.includes('://')) return { problem: `"${raw}" is a URL: write host:port (${example})` };
  const bracketed = /^\[([^\]]*)\](?::(.*))?$/.exec(text);
  let target: string;
  let port: string | undefined;
  if (bracketed) {
    target = bracketed[1] as string;
    port = bracketed[2];
    if (net.isIP(target.split('/')[0] as string) !== 6)
      return { problem: `"${raw}": only IPv6 addresses go in brackets (${example})` };
  } else {
    const colon = text.lastIndexOf(':');
    target = colon < 0 ? text : text.slice(0, colon);
    port = colon < 0 ? undefined : text.slice(colon + 1);
    if (target.includes(':'))
      return { problem: `"${raw}": write IPv6 addresses in brackets with a port, e.g. [fd00::1]:8443` };
  }
  if (port === undefined)
    return { problem: `"${raw}" names no port: write host:port (${example}); one entry opens one port` };
  if (!/^\d{1,5}$/.test(port) || Number(port) < 1 || Number(port) > 65535)
    return { problem: `"${raw}": the port must be a number from 1 to 65535` };
  const [address = '', prefix, extra] = target.split('/');
  const family = net.isIP(address);
  if (prefix !== undefined || family) {
    const bits = prefix === undefined ? (family === 4 ? 32 : 128) : Number(prefix);
    if (
      !family ||
      extra !== undefined ||
      !/^\d{1,3}$/.test(prefix ?? '0') ||
      bits > (family === 4 ? 32 : 128)
    )
      return { problem: `"${raw}": ${target} is not a valid IP address or CIDR` };
    const network = new net.BlockList();
    network.addSubnet(address, bits, family === 4 ? 'ipv4' : 'ipv6');
    return { entry: { host: null, network, port: Number(port) } };
  }
  if (!HOST_NAME.test(target))
    return { problem: `"${raw}": ${target} is not a host name, IP address or CIDR` };
  return { entry: { host: target, network: null, port: Number(port) } };
}

/** What is wrong with an allowlist entry (config validation), or null when it is well-formed. */
export function allowlistEntryProblem(entry: string): string | null {
  const read = readEntry(entry);
  return 'problem' in read ? read.problem : null;
}

/** Parses validated entries (config.ts refuses bad ones at start-up; a bad one here is a bug). */
export function parseAllowlist(entries: string[]): OutboundAllowlist {
  return {
    entries: entries
      .filter((entry) => entry.trim())
      .map((entry) => {
        const read = readEntry(entry);
        if ('problem' in read) throw new Error(`ATTESTLY_WEBHOOK_ALLOWLIST: ${read.problem}`);
        return read.entry;
      }),
  };
}

const bareHost = (hostname: string) => hostname.toLowerCase().replace(/^\[|\]$/g, '');

/** Whether `address` (an IP) on `port` is inside a listed network with that port. */
function networkListed(allowlist: OutboundAllowlist, address: string, port: number): boolean {
  const family = net.isIP(address);
  if (!family) return false;
  return allowlist.entries.some(
    (entry) => entry.port === port && entry.network?.check(address, family === 4 ? 'ipv4' : 'ipv6'),
  );
}

/** Whether the URL's host (a name or an IP literal) and port are listed together. */
function hostListed(allowlist: OutboundAllowlist, host: string, port: number): boolean {
  return (
    allowlist.entries.some((entry) => entry.port === port && entry.host === host) ||
    networkListed(allowlist, host, port)
  );
}

function allowedAddress(allowlist: OutboundAllowlist, address: string, host: string, port: number): boolean {
  return (
    hostListed(allowlist, host, port) || networkListed(allowlist, address, port) || isPublicAddress(address)
  );
}

export const PRIVATE_TARGET = 'Webhook URL must not point at a private, loopback or link-local address';

/** The port a webhook URL connects to. */
export const urlPort = (url: URL) => Number(url.port) || (url.protocol === 'http:' ? 80 : 443);

export class OutboundRefused extends Error {
  readonly code = 'EOUTBOUNDREFUSED';
  constructor() {
    // Deliberately without the name or the addresses it resolved to: the message reaches the partner.
    super('no public address');
    this.name = 'OutboundRefused';
  }
}

/**
 * Checks a webhook URL before anything is sent (registration, and again before each delivery): https, or http to
 * a listed host and port; an IP literal must be public or listed (Node does not call `lookup` for IP literals).
 */
export function urlProblem(value: string, allowlist: OutboundAllowlist): string | null {
  const url = webhookHttpUrl(value);
  if (typeof url === 'string') return url;
  const host = bareHost(url.hostname);
  const listed = hostListed(allowlist, host, urlPort(url));
  if (url.protocol === 'http:' && !listed) return 'Webhook URL must use https';
  if (net.isIP(host) && !listed && !isPublicAddress(host)) return PRIVATE_TARGET;
  if (
    !listed &&
    (host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.internal') || host === 'metadata')
  ) {
    return PRIVATE_TARGET;
  }
  return null;
}

/**
 * A `lookup` for one request to `port` that resolves as usual and refuses the connection unless every resolved
 * address is public, or the host or the address is listed with this port. A name that does not resolve is refused
 * the same way, so the answer does not tell which internal names exist.
 */
export function guardedLookup(allowlist: OutboundAllowlist, port: number): LookupFunction {
  return (hostname, options, callback) => {
    const host = bareHost(hostname);
    dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
      const list = error ? [] : (addresses as dns.LookupAddress[]);
      const refused = list.some((entry) => !allowedAddress(allowlist, entry.address, host, port));
      if (refused || list.length === 0) return callback(new OutboundRefused(), '', 0);
      if (options.all) return callback(null, list as unknown as string, 0);
      const first = list[0] as dns.LookupAddress;
      callback(null, first.address, first.family);
    });
  };
}
