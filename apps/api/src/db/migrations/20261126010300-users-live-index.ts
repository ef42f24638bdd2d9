import type { Migration } from '../migration';

/**
 * Live (not deleted) accounts newest first, as the back office lists them (issue 9 "Performance"): a partial
 * index, so the users page and its total_count read the index alone. SQLite and PostgreSQL both support it.
 */
export const up: Migration = async ({ context: qi }) => {
  await qi.sequelize.query('CREATE INDEX users_live_created ON users (created_at) WHERE deleted_at IS NULL');
};

export const down: Migration = async ({ context: qi }) => {
  await qi.removeIndex('users', 'users_live_created');
};
