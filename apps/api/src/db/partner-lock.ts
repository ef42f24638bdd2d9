import { QueryTypes, Transaction } from 'sequelize';
import { AppError } from '../errors';
import type { Database } from './database';

/**
 * Runs `work` in a transaction that holds the partner's row lock, so that a per-partner count limit (webhooks, API
 * keys, sites) is counted and written as one step: two requests or two replicas cannot both see room for one more.
 * PostgreSQL: `SELECT … FOR UPDATE` on the partner row; whoever comes second waits for the first to commit and then
 * counts its row (each statement of a READ COMMITTED transaction sees what committed before it). SQLite: an
 * IMMEDIATE transaction, which takes the database's write lock at BEGIN, so no other connection or process writes
 * between the count and the insert. A missing partner is 404.
 */
export async function underPartnerLock<T>(
  db: Pick<Database, 'sequelize' | 'dialect'>,
  partnerId: string,
  work: (transaction: Transaction) => Promise<T>,
): Promise<T> {
  const postgres = db.dialect === 'postgres';
  return db.sequelize.transaction(
    postgres ? {} : { type: Transaction.TYPES.IMMEDIATE },
    async (transaction) => {
      const found = await db.sequelize.query(
        `SELECT id FROM partners WHERE id = :partnerId${postgres ? ' FOR UPDATE' : ''}`,
        { replacements: { partnerId }, type: QueryTypes.SELECT, transaction },
      );
      if (found.length === 0) throw new AppError(404, 'partners.not_found', 'Partner not found');
      return work(transaction);
    },
  );
}
