import { Op } from 'sequelize';
import type { Deps } from '../../../core/deps';
import { AppError } from '../../../errors';
import type { RequestOrigin, SessionRecord } from '../../shared/sessions/service';
import type { EndSessionsOptions } from '../../shared/sessions/end-sessions';
import { createAccountContext, type AccountServices } from './account-context';
import { createContactVerification } from './contact-verification';
import { createAccountDeletion } from './deletion';
import { createPasswords } from './passwords';
import { createProfile } from './profile';
import { createSignIn } from './sign-in';

export {
  EMAIL_CHANGE_BY_USER,
  EMAIL_TOKEN_TTL_MS,
  EMAIL_VERIFICATION_BY_USER,
  FORGOT_PASSWORD_BY_EMAIL,
  INVALID_CREDENTIALS,
  LOCKED_OUT,
  LOCKOUT_MS,
  MAIL_BY_RECIPIENT,
  MAX_FAILED_LOGINS,
  PHONE_CODE_MAX_ATTEMPTS,
  PHONE_CODE_TTL_MS,
  RESET_TOKEN_TTL_MS,
} from './limits';
export { PHONE_VERIFICATION_BY_USER } from './phone-budget';

/**
 * The user's account (spec 01): sign-up and sign-in (sign-in.ts), the profile (profile.ts), proving the address and
 * phone (contact-verification.ts), the password (passwords.ts), deletion (deletion.ts), and the sessions below.
 */
export function createUserService(deps: Deps, services: AccountServices) {
  const { db, clock } = deps;
  const { UserPhoto } = db.models;
  const ctx = createAccountContext(deps, services);
  const { sessions, audit, lockout, ender, findActiveUser } = ctx;
  const contact = createContactVerification(ctx);
  const { register, login } = createSignIn(ctx, contact.sendEmailVerification);
  const { readProfile, profileOf, updateProfile, setProfilePhoto } = createProfile(ctx);
  const { changePassword, forgotPassword, resetPassword } = createPasswords(ctx);
  const { deleteAccount } = createAccountDeletion(ctx);
  const { requestEmailVerification, verifyEmail, requestPhoneVerification, verifyPhone } = contact;

  return {
    /** Resolves once all work started after earlier responses (mail included) has finished. */
    whenIdle: ctx.whenIdle,
    register,
    login,
    /**
     * Ends a user's sign-in everywhere (INTERFACES.md): Attestly sessions and the provider's browser sessions, and
     * with `revokeGrants` the partners' tokens (`'tokens'`) or grants and tokens (`true`). For an administrator's
     * lock: `endAllSessions(id, { reason: 'account_locked', revokeGrants: true, adminUserId })`.
     */
    endAllSessions: (userId: string, options: EndSessionsOptions) => ender.endAllSessions(userId, options),
    /** Forgets sign-in failure counters left idle (the job runner calls this hourly). */
    purgeLoginFailures: () => lockout.purgeIdle(),
    findActiveUser,
    readProfile,
    profileOf,
    updateProfile,
    setProfilePhoto,
    changePassword,
    deleteAccount,
    requestEmailVerification,
    verifyEmail,
    requestPhoneVerification,
    verifyPhone,
    forgotPassword,
    resetPassword,
    async profilePhoto(key: string) {
      return UserPhoto.findOne({ where: { key }, attributes: ['content_type', 'bytes', 'updated_at'] });
    },
    async refresh(session: SessionRecord, origin: RequestOrigin) {
      const user = await findActiveUser(session.subject_id);
      const issued = await sessions.rotate(session, origin);
      await audit.recordSafely({
        event: 'user.token_refreshed',
        userId: user.id,
        ...origin,
      });
      return { user, ...issued };
    },
    async logout(session: SessionRecord, origin: RequestOrigin) {
      await sessions.revoke(session.id);
      // The provider's browser sessions of the account end with it (issue 15 item 1): a browser signed in at the
      // provider through this sign-in would otherwise keep receiving codes, prompt=none included.
      await ender.endAllSessions(session.subject_id, {
        reason: 'signed_out',
        endAttestlySessions: false,
        origin,
      });
      await audit.recordSafely({
        event: 'user.logged_out',
        userId: session.subject_id,
        ...origin,
      });
    },
    async revokeSession(current: SessionRecord, sessionId: string, origin: RequestOrigin) {
      const target = await db.models.Session.findOne({
        where: {
          id: sessionId,
          kind: 'user',
          subject_id: current.subject_id,
          expires_at: { [Op.gt]: clock.now() },
        },
      });
      if (!target) throw new AppError(404, 'sessions.not_found', 'Session not found');
      await sessions.revoke(target.id);
      await audit.recordSafely({
        event: 'user.session_revoked',
        userId: current.subject_id,
        ...origin,
        details: { session_id: target.id },
      });
    },
  };
}
export type UserService = ReturnType<typeof createUserService>;
