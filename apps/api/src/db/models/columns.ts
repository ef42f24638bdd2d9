import { DataTypes, type DataType, type Sequelize } from 'sequelize';

/**
 * Column and table definitions the models share, so that a rule such as "ids are generated UUIDs" or "Sequelize
 * stamps created_at and updated_at" is written once. The migrations stay the schema's source of truth: these
 * describe the columns they create (migrations.test.ts checks the two agree).
 */

/** The generated UUID primary key of most tables. */
export const uuidKey = () => ({ type: DataTypes.UUID, defaultValue: DataTypes.UUIDV4, primaryKey: true });

/** A column that must hold a value (NOT NULL). */
export const required = (type: DataType) => ({ type, allowNull: false });

/** A count that starts at zero: attempts, failures. */
export const counter = () => ({ type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 });

/** A yes/no column that always holds one of the two. */
export const flag = (defaultValue: boolean) => ({ type: DataTypes.BOOLEAN, allowNull: false, defaultValue });

/** The sign-in figures an account keeps (users, partners, administrators), shown in the back office (spec 02). */
export const signInColumns = () => ({
  login_attempts: counter(),
  locked_until: DataTypes.DATE,
  last_login_at: DataTypes.DATE,
});

/**
 * Options of a table whose `created_at` and `updated_at` Sequelize fills in; `false` names a stamp the table does
 * not have.
 */
export const stampedTable = (
  sequelize: Sequelize,
  tableName: string,
  stamps: { createdAt?: false; updatedAt?: false } = {},
) => ({
  sequelize,
  tableName,
  underscored: true,
  createdAt: stamps.createdAt ?? 'created_at',
  updatedAt: stamps.updatedAt ?? 'updated_at',
});

/** Options of a table whose columns the code writes itself, stamps included. */
export const plainTable = (sequelize: Sequelize, tableName: string) => ({
  sequelize,
  tableName,
  timestamps: false,
});
