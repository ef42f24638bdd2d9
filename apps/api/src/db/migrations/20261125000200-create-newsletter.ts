import { DataTypes } from 'sequelize';
import type { Migration } from '../migration';

export const up: Migration = async ({ context: qi }) => {
  await qi.createTable('newsletter_subscribers', {
    id: { type: DataTypes.UUID, primaryKey: true },
    email: { type: DataTypes.STRING(254), allowNull: false },
    unsubscribe_hash: { type: DataTypes.STRING(64), allowNull: false },
    confirmed_at: DataTypes.DATE,
    unsubscribed_at: DataTypes.DATE,
    created_at: { type: DataTypes.DATE, allowNull: false },
    updated_at: { type: DataTypes.DATE, allowNull: false },
  });
  await qi.addIndex('newsletter_subscribers', ['email'], {
    name: 'newsletter_subscribers_email_unique',
    unique: true,
  });
  await qi.addIndex('newsletter_subscribers', ['unsubscribe_hash'], {
    name: 'newsletter_subscribers_unsubscribe',
  });
};

export const down: Migration = async ({ context: qi }) => {
  await qi.dropTable('newsletter_subscribers');
};
