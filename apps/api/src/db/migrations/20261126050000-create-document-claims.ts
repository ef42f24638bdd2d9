import { DataTypes } from 'sequelize';
import type { Migration } from '../migration';

/**
 * Which account a document proves (issue 14: documents bound to their holder). A document is identified only by a
 * keyed hash of its issuing state, type and number (HMAC with a key derived from the master key): the number itself
 * is never stored. The primary key makes "one document, one account" atomic: two accounts approving the same
 * document at once cannot both insert, and the loser goes to manual review.
 *
 * Also closes the card checks that could never move (issue 14 item 4): format-only card rows left pending with
 * nothing to decide them become 'rejected' with the reason.
 */
export const up: Migration = async ({ context: qi }) => {
  await qi.createTable('document_claims', {
    fingerprint: { type: DataTypes.STRING(64), primaryKey: true },
    user_id: {
      type: DataTypes.UUID,
      allowNull: false,
      references: { model: 'users', key: 'id' },
      onDelete: 'CASCADE',
    },
    verification_id: {
      type: DataTypes.UUID,
      allowNull: false,
      references: { model: 'verifications', key: 'id' },
      onDelete: 'CASCADE',
    },
    created_at: { type: DataTypes.DATE, allowNull: false },
  });
  await qi.addIndex('document_claims', ['user_id'], { name: 'document_claims_user' });
  await qi.sequelize.query(
    `UPDATE verifications SET status = 'rejected', needs_manual_review = :no,
       message = 'A card cannot verify your age on this server: no card issuer confirmed the card. Please verify your age with an identity document and a short video instead.'
     WHERE verification_method = 'credit_card' AND status = 'pending'`,
    { replacements: { no: false } },
  );
};

export const down: Migration = async ({ context: qi }) => {
  await qi.dropTable('document_claims');
};
