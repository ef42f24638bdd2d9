import { DataTypes, type Model } from 'sequelize';
import {
  accountColumns,
  counter,
  nullable,
  signInColumns,
  sql,
  stamp,
  stampedTable,
  withDefault,
  type Column,
} from './columns';

/** A back-office administrator (spec 02 §6): password plus mandatory TOTP. */
export class Admin extends stampedTable('admins', {
  ...accountColumns(),
  full_name: nullable(sql.string(120)),
  status: withDefault(sql.string<'active' | 'disabled'>(16), 'active'),
  totp_secret: nullable(sql.text()),
  totp_enabled_at: nullable(sql.date()),
  totp_last_step: {
    type: DataTypes.BIGINT,
    allowNull: false,
    defaultValue: 0,
    // PostgreSQL returns BIGINT as text.
    get(this: Model) {
      return Number(this.getDataValue('totp_last_step'));
    },
  } as Column<number, true>,
  totp_failures: counter(),
  pending_2fa_hash: nullable(sql.string(64)),
  pending_2fa_expires_at: nullable(sql.date()),
  ...signInColumns(),
  created_at: stamp(),
  updated_at: stamp(),
}) {}
