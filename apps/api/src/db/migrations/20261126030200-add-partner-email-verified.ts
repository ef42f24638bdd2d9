import { DataTypes } from 'sequelize';
import type { Migration } from '../migration';

/** Partner e-mail verification (issue 10): when the partner proved its address by the link sent at registration. */
export const up: Migration = async ({ context: qi }) => {
  await qi.addColumn('partners', 'email_verified_at', { type: DataTypes.DATE, allowNull: true });
};

export const down: Migration = async ({ context: qi }) => {
  // Plain DROP COLUMN (SQLite ≥ 3.35, PostgreSQL): Sequelize's SQLite removeColumn rebuilds the table and fails on
  // the expression index partners has on lower(email).
  await qi.sequelize.query('ALTER TABLE partners DROP COLUMN email_verified_at');
};
