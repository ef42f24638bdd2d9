import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Deps } from '../core/deps';

/** How long an announcement counts as a live replica's, and when it is forgotten. */
export const ISSUER_ANNOUNCEMENT_LIVE_MS = 10 * 60_000;
const ISSUER_ANNOUNCEMENT_KEEP_MS = 24 * 3600_000;

const ANNOUNCE = `INSERT INTO oidc_issuers (replica_id, issuer, announced_at) VALUES (:replicaId, :issuer, :now)
  ON CONFLICT (replica_id) DO UPDATE SET issuer = excluded.issuer, announced_at = excluded.announced_at`;

/**
 * Replicas must share one issuer (issue 15 item 10; DESIGN.md §2): it is in every ID token, in discovery and in the
 * `iss` of each authorization response, so replicas started with different ATTESTLY_PUBLIC_URLs sign tokens the
 * others' clients reject and refuse each other's codes. Each replica announces its issuer in the database at start
 * and again on every key check; a replica that sees a live announcement with another issuer logs a warning naming
 * both, so the mistake shows in the first minutes instead of as intermittent sign-in failures.
 */
export function createIssuerAnnouncer(deps: Pick<Deps, 'db' | 'logger'>, issuer: string) {
  const replicaId = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  const warned = new Set<string>();

  /** Announces this replica's issuer; returns the other issuers live replicas announced (and warns once each). */
  async function announce(): Promise<string[]> {
    const now = Date.now();
    await deps.db.write(ANNOUNCE, { replicaId, issuer, now });
    await deps.db.write('DELETE FROM oidc_issuers WHERE announced_at < :before', {
      before: now - ISSUER_ANNOUNCEMENT_KEEP_MS,
    });
    const others = await deps.db.read<{ replica_id: string; issuer: string }>(
      `SELECT replica_id, issuer FROM oidc_issuers
        WHERE replica_id <> :replicaId AND issuer <> :issuer AND announced_at >= :since`,
      { replicaId, issuer, since: now - ISSUER_ANNOUNCEMENT_LIVE_MS },
    );
    const issuers = [...new Set(others.map((row) => row.issuer))];
    for (const other of issuers) {
      if (warned.has(other)) continue;
      warned.add(other);
      deps.logger.warn(
        {
          issuer,
          other_issuer: other,
          replicas: others.filter((row) => row.issuer === other).map((row) => row.replica_id),
        },
        'another replica on this database announces a different OpenID Connect issuer: every replica must run with ' +
          'the same ATTESTLY_PUBLIC_URL, or tokens and codes from one are refused by the others',
      );
    }
    return issuers;
  }

  return {
    replicaId,
    announce,
    /** Removes this replica's announcement (clean shutdown). */
    async withdraw(): Promise<void> {
      await deps.db.write('DELETE FROM oidc_issuers WHERE replica_id = :replicaId', { replicaId });
    },
  };
}
