import { randomBytes } from 'node:crypto';
import { withdrawCasesOfDeletedAccount, type WithdrawDeps } from '../verification/withdraw';

export interface ErasureOptions {
  /** When the account ends: its `deleted_at`, and the time any open flag is resolved at. */
  now: Date;
  /**
   * The administrator who deleted the account (back office): the user's open flags are resolved in their name, so
   * the review queue does not keep a flag on an account that no longer exists. Absent for the user's own deletion.
   */
  resolveFlagsBy?: string;
}

/**
 * Erases an account, the one rule for the user's own deletion (deletion.ts) and the back office's (backoffice/users
 * remove): personal data goes; the row stays, anonymised, so that audit entries and verification records that name
 * this id keep their meaning. The unusable password hash and the freed address end the account for good. The audit
 * trail is kept. Callers end every sign-in and grant first, and write their own audit entry after. Returns how many
 * cases under review were withdrawn (verification/withdraw.ts).
 */
export async function eraseAccount(
  deps: WithdrawDeps,
  userId: string,
  options: ErasureOptions,
): Promise<number> {
  const { db } = deps;
  const { now, resolveFlagsBy } = options;
  return db.sequelize.transaction(async (transaction) => {
    // First (it locks the account): cases under review are withdrawn and every kept media file goes.
    const cases = await withdrawCasesOfDeletedAccount(deps, userId, transaction);
    await db.models.UserPhoto.destroy({ where: { user_id: userId }, transaction });
    await db.models.OneTimeToken.destroy({ where: { subject_id: userId }, transaction });
    await db.models.Session.destroy({ where: { kind: 'user', subject_id: userId }, transaction });
    if (resolveFlagsBy !== undefined) {
      await db.models.UserFlag.update(
        { resolved_at: now, resolved_by: resolveFlagsBy, resolution_notes: 'Account deleted' },
        { where: { user_id: userId, resolved_at: null }, transaction },
      );
    }
    await db.models.User.update(
      {
        email: `deleted-${userId}@deleted.invalid`,
        password_hash: `deleted$${randomBytes(16).toString('hex')}`,
        full_name: 'Deleted user',
        phone: null,
        pending_phone: null,
        country: null,
        state: null,
        city: null,
        profile_photo_key: null,
        email_verified_at: null,
        phone_verified_at: null,
        proven_min_age: null,
        age_verified_at: null,
        age_verified_until: null,
        location_country: null,
        location_state: null,
        location_verified_at: null,
        location_verified_until: null,
        identity_verified_at: null,
        identity_verified_until: null,
        login_attempts: 0,
        locked_until: null,
        last_login_at: null,
        is_active: false,
        deleted_at: now,
      },
      { where: { id: userId }, transaction },
    );
    return cases;
  });
}
