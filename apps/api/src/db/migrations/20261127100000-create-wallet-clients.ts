import { DataTypes } from 'sequelize';
import type { Migration } from '../migration';

/**
 * Wallet clients the operator registers (issue 24 item 3): public OAuth clients that may run the OpenID4VCI
 * authorization code flow. Rows, so that every replica sees a registration or removal (within the provider's
 * two-second client cache).
 */
export const up: Migration = async ({ context: qi }) => {
  await qi.createTable('wallet_clients', {
    client_id: { type: DataTypes.STRING(128), primaryKey: true },
    name: { type: DataTypes.STRING(200), allowNull: false },
    /** JSON array of the exact redirect URIs. */
    redirect_uris: { type: DataTypes.TEXT, allowNull: false },
    created_at: { type: DataTypes.DATE, allowNull: false },
  });
};

export const down: Migration = async ({ context: qi }) => {
  await qi.dropTable('wallet_clients');
};
