import { DataTypes } from 'sequelize';
import type { Migration } from '../migration';

/**
 * The credit-card age check through Stripe (issue 25 item 1): one row per SetupIntent the appliance created for a
 * user. Deciding a check claims its row with a conditional update (`decided_at IS NULL`), so a SetupIntent proves
 * at most once, however many replicas or racing requests finish it. Nothing about the card is kept here.
 *
 * The format-only card rows of earlier releases proved nothing and stay as they are (all rejected since
 * 20261126050000); there is nothing to migrate.
 */
export const up: Migration = async ({ context: qi }) => {
  await qi.createTable('card_checks', {
    setup_intent_id: { type: DataTypes.STRING(255), primaryKey: true },
    user_id: {
      type: DataTypes.UUID,
      allowNull: false,
      references: { model: 'users', key: 'id' },
      onDelete: 'CASCADE',
    },
    verification_id: {
      type: DataTypes.UUID,
      allowNull: true,
      references: { model: 'verifications', key: 'id' },
      onDelete: 'SET NULL',
    },
    created_at: { type: DataTypes.DATE, allowNull: false },
    decided_at: { type: DataTypes.DATE, allowNull: true },
  });
  await qi.addIndex('card_checks', ['user_id'], { name: 'card_checks_user' });
};

export const down: Migration = async ({ context: qi }) => {
  await qi.dropTable('card_checks');
};
