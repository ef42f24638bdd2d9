import { QueryTypes } from 'sequelize';
import type { Transaction } from 'sequelize';
import type { Deps } from '../../../core/deps';
import type { Verification } from '../../../db/models/index';
import { toDate } from '../../../db/rows';
import { pairwiseSubject } from '../../../oidc/account';
import { emitWebhookEvent } from './emit';

/** How far back the token.expired job looks: grants that expired before a long outage are not announced late. */
const EXPIRY_LOOKBACK_MS = 7 * 86400_000;
const EXPIRY_BATCH = 500;

/**
 * verification.completed / verification.failed for a verification made for a partner (spec 01 §7): only what the
 * partner may know — its pairwise subject for the user, the site, what was checked and the result.
 */
export async function emitVerificationEvent(
  deps: Pick<Deps, 'config' | 'db' | 'clock'>,
  row: Verification,
  transaction?: Transaction,
): Promise<void> {
  if (!row.partner_id || row.status === 'pending') return;
  const completed = row.status === 'approved';
  await emitWebhookEvent(
    deps,
    {
      partnerId: row.partner_id,
      type: completed ? 'verification.completed' : 'verification.failed',
      data: {
        verification_id: row.id,
        user_id: pairwiseSubject(deps.config.masterKey, row.partner_id, row.user_id),
        partner_id: row.partner_id,
        site_id: row.site_id,
        verification_type: row.verification_type,
        verification_method: row.verification_method,
        status: row.status,
        age_threshold: row.age_threshold,
        sandbox: Boolean((row as { sandbox?: boolean }).sandbox),
        created_at: row.created_at.toISOString(),
      },
    },
    { transaction },
  );
}

/**
 * token.expired (spec 01 §7): grants whose expiry passed unrevoked are announced once. Each grant is claimed by
 * inserting its id into `token_expiry_events` (the primary key refuses a second claim), in the same transaction
 * as the event, so replicas racing on one grant produce one event.
 */
export async function emitExpiredTokens(deps: Deps): Promise<number> {
  const { db, clock, config } = deps;
  const now = clock.now();
  const rows = await db.read<Record<string, unknown>>(
    `SELECT id, partner_id, user_id, site_id, client_id, scopes, age_threshold, created_at, expires_at
      FROM oauth_authorizations a WHERE a.expires_at <= :now AND a.expires_at > :since AND a.revoked_at IS NULL
      AND NOT EXISTS (SELECT 1 FROM token_expiry_events t WHERE t.grant_id = a.id)
      ORDER BY a.expires_at LIMIT ${EXPIRY_BATCH}`,
    { now, since: new Date(now.getTime() - EXPIRY_LOOKBACK_MS) },
  );
  let emitted = 0;
  for (const row of rows) {
    const announced = await db.sequelize.transaction(async (transaction) => {
      const claimed = (await db.sequelize.query(
        // The leading comment keeps Sequelize's SQLite dialect from running this as a plain INSERT (no rows back).
        `/* returning */ INSERT INTO token_expiry_events (grant_id, notified_at) VALUES (:id, :now)
          ON CONFLICT (grant_id) DO NOTHING RETURNING grant_id`,
        { replacements: { id: row.id, now }, type: QueryTypes.SELECT, transaction },
      )) as unknown[];
      if (claimed.length === 0) return false;
      const partnerId = row.partner_id as string;
      await emitWebhookEvent(
        deps,
        {
          partnerId,
          type: 'token.expired',
          data: {
            token_id: row.id,
            user_id: pairwiseSubject(config.masterKey, partnerId, row.user_id as string),
            partner_id: partnerId,
            site_id: row.site_id,
            client_id: row.client_id,
            scopes_granted: JSON.parse(String(row.scopes)) as string[],
            age_threshold: row.age_threshold ?? null,
            created_at: toDate(row.created_at)?.toISOString(),
            expired_at: toDate(row.expires_at)?.toISOString(),
          },
        },
        { transaction },
      );
      return true;
    });
    if (announced) emitted += 1;
  }
  // Announcements of grants that no longer exist are not needed to prevent a second event.
  await db.sequelize.query(
    `DELETE FROM token_expiry_events WHERE NOT EXISTS (
      SELECT 1 FROM oauth_authorizations a WHERE a.id = token_expiry_events.grant_id)`,
    { type: QueryTypes.BULKDELETE },
  );
  return emitted;
}
