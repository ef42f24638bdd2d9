import dns from 'node:dns';
import net from 'node:net';
import type { LookupFunction } from 'node:net';

/**
 * Outbound safety for webhook deliveries (SSRF): a partner chooses the URL, so the server must not be turned into
 * a way to reach its own network. Private, loopback, link-local (cloud metadata lives there), shared, reserved and
 * multicast addresses are refused — checked on the address actually resolved at connect time (a custom `lookup`),
 * so a name that resolves differently later (DNS rebinding) is caught too. The operator may list hosts or CIDRs in
 * ATTESTLY_WEBHOOK_ALLOWLIST (development, on-premise receivers); plain http is allowed only to listed hosts.
 */
const BLOCKED_V4 = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const;
const BLOCKED_V6 = [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['100::', 64],
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

/** An IPv4 address embedded in an IPv6 one (::ffff:a.b.c.d mapped, ::a.b.c.d compatible), else null. */
function embeddedV4(address: string): string | null {
  const match = /^::(?:ffff:(?:0{1,4}:)?)?(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (match) return match[1] as string;
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (hex) {
    const high = parseInt(hex[1] as string, 16);
    const low = parseInt(hex[2] as string, 16);
    return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
  }
  return null;
}

export function isPublicAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 4) return !blocked.check(address, 'ipv4');
  if (family === 6) {
    const v4 = embeddedV4(address);
    if (v4) return !blocked.check(v4, 'ipv4');
    return !blocked.check(address, 'ipv6');
  }
  return false;
}

export interface OutboundAllowlist {
  hosts: Set<string>;
  networks: net.BlockList;
}

/** Parses "host1,10.0.0.0/8,::1" (hosts lower-cased; IPs without a prefix become /32 or /128). */
export function parseAllowlist(entries: string[]): OutboundAllowlist {
  const hosts = new Set<string>();
  const networks = new net.BlockList();
  for (const raw of entries) {
    const entry = raw
      .trim()
      .toLowerCase()
      .replace(/^\[|\]$/g, '');
    if (!entry) continue;
    const [address, prefix] = entry.split('/');
    const family = net.isIP(address ?? '');
    if (family) {
      const bits = prefix === undefined ? (family === 4 ? 32 : 128) : Number(prefix);
      networks.addSubnet(address as string, bits, family === 4 ? 'ipv4' : 'ipv6');
      if (prefix === undefined) hosts.add(address as string);
    } else {
      hosts.add(entry);
    }
  }
  return { hosts, networks };
}

/** Whether an allowlist entry is well-formed (config validation). */
export function allowlistEntryProblem(entry: string): string | null {
  const value = entry.trim().replace(/^\[|\]$/g, '');
  const [address, prefix, extra] = value.split('/');
  if (extra !== undefined) return `${entry} is not a host or CIDR`;
  const family = net.isIP(address ?? '');
  if (prefix !== undefined) {
    if (!family || !/^\d{1,3}$/.test(prefix) || Number(prefix) > (family === 4 ? 32 : 128))
      return `${entry} is not a valid CIDR`;
    return null;
  }
  if (family) return null;
  return /^(?=.{1,253}$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/i.test(
    value,
  )
    ? null
    : `${entry} is not a host name, IP address or CIDR`;
}

const bareHost = (hostname: string) => hostname.toLowerCase().replace(/^\[|\]$/g, '');

function allowedAddress(address: string, host: string, allowlist: OutboundAllowlist): boolean {
  if (allowlist.hosts.has(host)) return true;
  const family = net.isIP(address);
  if (family && allowlist.networks.check(address, family === 4 ? 'ipv4' : 'ipv6')) return true;
  return isPublicAddress(address);
}

export class OutboundRefused extends Error {
  readonly code = 'EOUTBOUNDREFUSED';
  constructor(message: string) {
    super(message);
    this.name = 'OutboundRefused';
  }
}

/**
 * Checks a webhook URL before anything is sent (registration, and again before each delivery): https, or http to
 * a listed host; an IP literal must be public or listed (Node does not call `lookup` for IP literals).
 */
export function urlProblem(value: string, allowlist: OutboundAllowlist): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'Webhook URL must be a valid URL';
  }
  const host = bareHost(url.hostname);
  const listed =
    allowlist.hosts.has(host) ||
    (net.isIP(host) > 0 && allowlist.networks.check(host, net.isIP(host) === 4 ? 'ipv4' : 'ipv6'));
  if (url.protocol === 'http:' && !listed) return 'Webhook URL must use https';
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'Webhook URL must use https';
  if (net.isIP(host) && !allowedAddress(host, host, allowlist))
    return 'Webhook URL must not point at a private, loopback or link-local address';
  if (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    host.endsWith('.internal') ||
    host === 'metadata'
  ) {
    if (!listed) return 'Webhook URL must not point at a private, loopback or link-local address';
  }
  return null;
}

/**
 * A `lookup` for http(s) agents that resolves as usual and refuses the connection when any resolved address is
 * not public (unless the host or the address is listed).
 */
export function guardedLookup(allowlist: OutboundAllowlist): LookupFunction {
  return (hostname, options, callback) => {
    const host = bareHost(hostname);
    dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 0);
      const list = addresses as dns.LookupAddress[];
      const refused = list.find((entry) => !allowedAddress(entry.address, host, allowlist));
      if (refused || list.length === 0) {
        return callback(
          new OutboundRefused(`${hostname} resolves to a private address (${refused?.address ?? 'none'})`),
          '',
          0,
        );
      }
      if (options.all) return callback(null, list as unknown as string, 0);
      const first = list[0] as dns.LookupAddress;
      callback(null, first.address, first.family);
    });
  };
}
