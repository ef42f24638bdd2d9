import { AppError } from '../../../errors';
import { verifyPassword } from '../../../lib/passwords';
import type { RequestOrigin, SessionRecord } from '../../shared/sessions/service';
import type { AccountContext } from './account-context';
import { eraseAccount } from './erasure';

/** The user deleting their own account: confirmed by password, erased (erasure.ts), then confirmed by mail. */
export function createAccountDeletion(ctx: AccountContext) {
  const { deps, audit, ender, sendLater, findActiveUser } = ctx;
  const { config, clock } = deps;

  async function deleteAccount(session: SessionRecord, password: string, origin: RequestOrigin) {
    const user = await findActiveUser(session.subject_id);
    if (!(await verifyPassword(password, user.password_hash))) {
      throw new AppError(422, 'users.wrong_password', 'Password is incorrect', [
        { path: 'password', message: 'Password is incorrect' },
      ]);
    }
    const now = clock.now();
    // Every grant, token and sign-in ends first (issue 15 item 2): nothing issued to this account stays usable.
    await ender.endAllSessions(user.id, { reason: 'account_deleted', revokeGrants: true, origin });
    // Personal data is erased; the anonymised row stays (erasure.ts).
    const withdrawn = await eraseAccount(deps, user.id, { now });
    await audit.recordSafely({
      event: 'user.account_deleted',
      userId: user.id,
      ...origin,
      details: { withdrawn_cases: withdrawn },
    });
    // The confirmation goes to the address the account had (issue 25 item 12): the person learns it is done, and
    // the owner of the address learns if someone else did it. It names no personal data beyond that address.
    await sendLater(
      user.email,
      'Your Attestly account has been deleted',
      `Hello,\n\nThe Attestly account for this e-mail address at ${config.publicUrl} was deleted on ` +
        `${now.toISOString().slice(0, 10)}, as requested from a signed-in session.\n\n` +
        'Its personal data, photos and kept verification media are erased, and every site you had connected ' +
        'lost access at once. Records that must stay for security audits keep only an anonymous account number.\n\n' +
        `If you did not do this, contact ${config.supportEmail}. You can create a new account at any time at ` +
        `${config.publicUrl}/register.\n`,
    );
  }

  return { deleteAccount };
}
