import { DataTypes } from 'sequelize';
import type { Migration } from '../migration';

/**
 * Outbox rows of other kinds than a ready mail (notifications/outbox.ts): a password-reset request is stored the same
 * way for every address and turned into a mail (or into nothing, for an address without an account) after the
 * answer, so the request survives a crash without its answer or timing revealing whether the account exists.
 */
export const up: Migration = async ({ context: qi }) => {
  await qi.addColumn('mail_outbox', 'kind', {
    type: DataTypes.STRING(40),
    allowNull: false,
    defaultValue: 'mail',
  });
};

export const down: Migration = async ({ context: qi }) => {
  await qi.removeColumn('mail_outbox', 'kind');
};
