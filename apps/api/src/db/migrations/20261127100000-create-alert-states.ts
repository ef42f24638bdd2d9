import { DataTypes } from 'sequelize';
import type { Migration } from '../migration';

/**
 * Whether each kind of system alert (spec 02 "Alert") is active, so that the moment one starts or ends is known
 * exactly once, whichever replica notices it: the transition is a conditional upsert, and only the statement that
 * changed the row writes the `system_alert` audit entry (issue 25 item 6). `active` is 0 or 1.
 */
export const up: Migration = async ({ context: qi }) => {
  await qi.createTable('alert_states', {
    type: { type: DataTypes.STRING(64), primaryKey: true },
    active: { type: DataTypes.SMALLINT, allowNull: false },
    changed_at: { type: DataTypes.DATE, allowNull: false },
  });
};

export const down: Migration = async ({ context: qi }) => {
  await qi.dropTable('alert_states');
};
