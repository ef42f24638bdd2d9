import { Op, type Transaction } from 'sequelize';
import type { Config } from '../../../config';
import type { Database } from '../../../db/database';
import type { User, Verification } from '../../../db/models/index';
import type { Clock } from '../../../lib/clock';
import { AppError, notFound } from '../../../errors';
import { emitVerificationEvent } from '../../partners/webhooks/events';

/** Where a withdrawn case says why (`result_details.withdrawn`). */
export const WITHDRAWN_KEY = 'withdrawn';
export const WITHDRAWN_MESSAGE = 'Withdrawn: the account was deleted';

/** The answer to any decision on a withdrawn case, or on a case of a deleted account (issue 21 item 9). */
export const withdrawnCase = () =>
  new AppError(409, 'verification.withdrawn', 'This case was withdrawn when its account was deleted');

export function isWithdrawn(row: Pick<Verification, 'result_details'>): boolean {
  return Boolean((row.result_details as Record<string, unknown> | null)?.[WITHDRAWN_KEY]);
}

/**
 * Inside a transaction that is about to decide or rewrite a case: locks its account, then the case (PostgreSQL; the
 * order an erasure takes too, so the two wait for each other instead of deadlocking), and refuses a withdrawn case or
 * one whose account is deleted. 404 for no such case.
 */
export async function lockOpenCase(
  db: Database,
  caseId: string,
  transaction: Transaction,
): Promise<{ user: User; row: Verification }> {
  const { User, Verification } = db.models;
  const lock = db.dialect === 'postgres';
  const owner = await Verification.findByPk(caseId, { transaction, attributes: ['id', 'user_id'] });
  if (!owner) throw notFound('Verification not found');
  const user = await User.findByPk(owner.user_id, { transaction, lock });
  const row = await Verification.findByPk(caseId, { transaction, lock });
  if (!row) throw notFound('Verification not found');
  if (isWithdrawn(row) || !user || user.deleted_at) throw withdrawnCase();
  return { user, row };
}

/** What withdrawing needs: the database, the clock, and the master key for the partner's pairwise subject. */
export interface WithdrawDeps {
  db: Database;
  clock: Clock;
  config: Config;
}

/**
 * Part of erasing an account (users/accounts/erasure.ts, for the user's and the back office's deletion), inside its
 * transaction: every case still pending is withdrawn — no longer in the review queue, its reading and keyed
 * document number gone, nothing left for an approval to apply — and the media kept for any of the account's cases
 * is deleted; decided cases keep their outcome but lose what the document said about the person. A partner whose
 * flow asked for a withdrawn case hears `verification.failed`. Returns how many cases were withdrawn.
 *
 * The user's row is locked first (PostgreSQL), in the order that a review and a new case also take (user, then
 * case), so a concurrent approval either finishes before and its proof is erased with the rest, or waits and finds
 * the case withdrawn; and no case can be recorded for the account between this and the erasure.
 */
export async function withdrawCasesOfDeletedAccount(
  deps: WithdrawDeps,
  userId: string,
  transaction: Transaction,
): Promise<number> {
  const { db, clock } = deps;
  const { User, Verification, VerificationMedia } = db.models;
  const lock = db.dialect === 'postgres';
  await User.findByPk(userId, { transaction, lock, attributes: ['id'] });
  const now = clock.now();
  const cases = await Verification.findAll({ where: { user_id: userId }, transaction, lock });
  let withdrawn = 0;
  for (const row of cases) {
    const { proves: _proves, ...details } = row.result_details as Record<string, unknown>;
    row.result_details = details;
    row.changed('result_details', true);
    const pending = row.status === 'pending';
    if (pending) {
      withdrawn += 1;
      row.status = 'expired';
      row.needs_manual_review = false;
      row.message = WITHDRAWN_MESSAGE;
      row.document_analysis = null;
      row.subject_fingerprint = null;
      row.result_details = {
        ...details,
        [WITHDRAWN_KEY]: { reason: 'account_deleted', at: now.toISOString() },
      };
      row.review_notes = [
        ...row.review_notes,
        { timestamp: now.toISOString(), note: WITHDRAWN_MESSAGE, author: 'system' },
      ];
      row.changed('review_notes', true);
    } else if (row.document_analysis) {
      // What the document said about the person goes; what was checked and decided stays.
      row.document_analysis = {
        ...row.document_analysis,
        date_of_birth: null,
        calculated_age: null,
        expiry_date: null,
        nationality: null,
        document_number_last4: null,
      };
      row.changed('document_analysis', true);
    }
    await row.save({ transaction });
    if (pending) await emitVerificationEvent(deps, row, transaction);
  }
  if (cases.length > 0) {
    await VerificationMedia.destroy({
      where: { verification_id: { [Op.in]: cases.map((row) => row.id) } },
      transaction,
    });
  }
  return withdrawn;
}
