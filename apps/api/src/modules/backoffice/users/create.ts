import { randomBytes } from 'node:crypto';
import { UniqueConstraintError, col, fn, where as sqlWhere } from 'sequelize';
import type * as v from 'valibot';
import {
  PARTNER_INVITATION_DAYS,
  type AdminCreatedUser,
  type AdminUserDetail,
  type adminCreateUserBody,
} from '@attestly/contracts';
import type { Deps } from '../../../core/deps';
import { AppError } from '../../../errors';
import { hashPassword } from '../../../lib/passwords';
import type { AuditService } from '../../shared/audit/service';
import { mailOutboxFor } from '../../shared/notifications/outbox';
import { createOneTimeTokens } from '../../users/accounts/one-time-tokens';
import type { AdminActor } from '../common';

export function createUserCreation(
  deps: Deps,
  audit: AuditService,
  detail: (id: string) => Promise<AdminUserDetail>,
) {
  const { db, clock, config } = deps;
  const { User } = db.models;
  const oneTimeTokens = createOneTimeTokens(deps);
  const outbox = mailOutboxFor(deps);

  /**
   * "Add User" (spec 02 §2; issue 25 item 6). The account starts with a random password nobody is told, unless
   * the administrator chose to be shown it once; with an invitation the person chooses one through a password-reset
   * link of PARTNER_INVITATION_DAYS days, which also proves the address (users/accounts/passwords.ts resetPassword).
   */
  async function create(
    body: v.InferOutput<typeof adminCreateUserBody>,
    who: AdminActor,
  ): Promise<AdminCreatedUser> {
    const taken = await User.findOne({
      where: sqlWhere(fn('LOWER', col('email')), body.email.toLowerCase()),
      attributes: ['id'],
    });
    const conflict = () =>
      new AppError(409, 'users.email_taken', 'A user with this email already exists', [
        { path: 'email', message: 'A user with this email already exists' },
      ]);
    if (taken) throw conflict();
    const firstPassword = randomBytes(12).toString('base64url');
    const now = clock.now();
    let user;
    try {
      user = await User.create({
        email: body.email,
        password_hash: await hashPassword(firstPassword, config.passwordCost),
        full_name: body.full_name,
        created_at: now,
        updated_at: now,
      });
    } catch (error) {
      // A racing sign-up or creation took the address first.
      if (error instanceof UniqueConstraintError) throw conflict();
      throw error;
    }
    await audit.recordSafely({
      event: 'user_created',
      userId: user.id,
      ...who,
      details: { sign_in: body.sign_in },
    });
    if (body.sign_in === 'show_password')
      return { ...(await detail(user.id)), temporary_password: firstPassword };
    const token = await oneTimeTokens.issue('password_reset', user.id, {
      ttlMs: PARTNER_INVITATION_DAYS * 86_400_000,
      target: user.email,
    });
    await outbox.enqueue({
      to: user.email,
      subject: 'You are invited to Attestly',
      text:
        `Hello ${body.full_name},\n\nAn Attestly account was created for you with this address. To sign in, choose ` +
        `your password by opening this link within ${PARTNER_INVITATION_DAYS} days:\n` +
        `${config.publicUrl}/reset-password?token=${encodeURIComponent(token)}\n\n` +
        `Then sign in at ${config.publicUrl}/login with ${user.email}. If you did not expect this, ignore this ` +
        `message: nothing happens unless the link is opened.\n`,
    });
    return { ...(await detail(user.id)), invitation_sent_to: user.email };
  }

  return create;
}
