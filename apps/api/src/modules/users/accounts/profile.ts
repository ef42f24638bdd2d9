import { type InferAttributes } from 'sequelize';
import type * as v from 'valibot';
import type { profileBody, UserProfile } from '@attestly/contracts';
import { fromRow } from '../../../db/rows';
import type { User } from '../../../db/models/index';
import { AppError, tooManyRequests } from '../../../errors';
import { randomToken } from '../../../lib/crypto';
import type { UploadedFile } from '../../../middleware/multipart';
import type { RequestOrigin } from '../../shared/sessions/service';
import type { AccountContext } from './account-context';
import { EMAIL_CHANGE_BY_USER, EMAIL_TOKEN_BYTES, EMAIL_TOKEN_TTL_MS } from './limits';
import { presentUser } from './presenters';

/** The user's profile: reading it, saving the form, asking for a new address, and the profile photo. */
export function createProfile(ctx: AccountContext) {
  const { deps, audit, limiter, tokens, sendLater, findActiveUser, spendRecipientBudget, emailLink } = ctx;
  const { db, clock } = deps;
  const { User, UserPhoto } = db.models;

  /**
   * Whether the user also holds a partner account (spec 01 §6 `is_partner`: the portal then adds the user's pages):
   * a partner that is not suspended with the same address, both addresses proven by mail, so that nobody becomes
   * "partner" of an account by typing its address. Read on each profile read (one probe of the partners'
   * LOWER(email) unique index), so it follows the partner's state without a copy to keep in step.
   */
  async function ownsPartnerAccount(user: InferAttributes<User>): Promise<boolean> {
    if (!user.email_verified_at) return false;
    const rows = await db.read<{ id: string }>(
      `SELECT id FROM partners WHERE LOWER(email) = :email AND email_verified_at IS NOT NULL
       AND status <> 'suspended'`,
      { email: user.email.toLowerCase() },
    );
    return rows.length > 0;
  }

  /**
   * The signed-in user's profile for reading only: one prepared statement (db.read; GET /users/profile is hot), or
   * none when the row came with the session in this request (`SessionRecord.user`, read in the same statement).
   */
  async function readProfile(
    id: string,
    withSession?: Record<string, unknown> | null,
  ): Promise<InferAttributes<User>> {
    const row =
      withSession !== undefined
        ? withSession
        : (await db.read<Record<string, unknown>>('SELECT * FROM users WHERE id = :id', { id }))[0];
    const user = row ? fromRow<InferAttributes<User>>(User, row) : null;
    if (!user || !user.is_active || user.deleted_at) {
      throw new AppError(401, 'auth.invalid_token', 'Your session has expired. Please sign in again.');
    }
    return user;
  }

  /**
   * The user's profile as every answer shows it (presentUser), with `is_partner` read as ownsPartnerAccount says;
   * `ownsPartner` when the session's statement already answered that (GET /users/profile stays one round trip).
   */
  async function profileOf(user: InferAttributes<User>, ownsPartner?: boolean): Promise<UserProfile> {
    const profile = presentUser(user, clock.now());
    const partner =
      ownsPartner === undefined ? await ownsPartnerAccount(user) : ownsPartner && !!user.email_verified_at;
    return { ...profile, is_partner: profile.is_partner || partner };
  }

  async function updateProfile(
    userId: string,
    body: v.InferOutput<typeof profileBody>,
    origin: RequestOrigin,
  ) {
    const user = await findActiveUser(userId);
    // PUT saves the whole form (spec 01 §2 "Profile settings"): an optional field left out is cleared, like a
    // blank one, so that what is stored is exactly what was sent.
    const changes: Partial<User> = {
      full_name: body.full_name,
      phone: body.phone ?? null,
      country: body.country ?? null,
      state: body.state ?? null,
      city: body.city ?? null,
    };
    // A new address is not applied here: it takes effect when the link mailed to it is opened (verifyEmail), and
    // the answer is the same whether or not another account has it (no enumeration through this form).
    const emailChanged = body.email !== user.email;
    if (emailChanged) await requestEmailChange(user, body.email, origin);
    if (changes.phone !== user.phone) changes.phone_verified_at = null;
    await user.update(changes);
    await audit.recordSafely({
      event: 'user.profile_updated',
      userId,
      ...origin,
      details: {
        fields: Object.keys(changes).filter(
          (key) => key !== 'email_verified_at' && key !== 'phone_verified_at',
        ),
      },
    });
    return { user, pendingEmail: emailChanged ? body.email : null };
  }

  /**
   * Asks to move the account to `address`: a free address gets a confirmation link; a taken one gets a notice to its
   * owner instead. Both cost the same budgets and produce the same answer.
   */
  async function requestEmailChange(user: User, address: string, origin: RequestOrigin) {
    const byAccount = await limiter.hit(EMAIL_CHANGE_BY_USER, user.id);
    if (!byAccount.allowed)
      throw tooManyRequests(
        'Too many e-mail address changes. Please wait before trying again.',
        byAccount.retryAfterSeconds,
      );
    await spendRecipientBudget(address);
    const owner = await User.findOne({ where: { email: address }, attributes: ['id', 'email'] });
    if (owner) {
      await sendLater(
        owner.email,
        'Someone tried to use your e-mail address on Attestly',
        `Hello,\n\nAnother Attestly account asked to use this e-mail address, which already belongs to your account.\n` +
          `Nothing has changed: your account and your address are untouched. If you did not expect this, you can ignore it.\n`,
      );
    } else {
      const token = await tokens.issue('email_change', user.id, {
        ttlMs: EMAIL_TOKEN_TTL_MS,
        target: address,
        bytes: EMAIL_TOKEN_BYTES,
      });
      await sendLater(
        address,
        'Confirm your new e-mail address for Attestly',
        `Hello,\n\nAn Attestly account asked to use this e-mail address. Open this link\nwithin 24 hours to confirm it:\n\n` +
          `${emailLink(token)}\n\nUntil then the account keeps its current address.\n` +
          `If you did not ask for this, ignore this message.\n`,
      );
    }
    await audit.recordSafely({
      event: 'user.email_change_requested',
      userId: user.id,
      ...origin,
    });
  }

  async function setProfilePhoto(userId: string, file: UploadedFile, origin: RequestOrigin) {
    const user = await findActiveUser(userId);
    const key = randomToken(24);
    await db.sequelize.transaction(async (transaction) => {
      await UserPhoto.destroy({ where: { user_id: userId }, transaction });
      await UserPhoto.create(
        { user_id: userId, key, content_type: file.mime, bytes: file.bytes },
        { transaction },
      );
      await User.update({ profile_photo_key: key }, { where: { id: userId }, transaction });
    });
    user.profile_photo_key = key;
    await audit.recordSafely({
      event: 'user.profile_photo_updated',
      userId,
      ...origin,
      details: { content_type: file.mime, bytes: file.bytes.length },
    });
    return user;
  }

  return { readProfile, profileOf, updateProfile, setProfilePhoto };
}
