import { DataTypes } from 'sequelize';
import type { Migration } from '../migration';

/** Partner accounts and their sites; a site is an OpenID Connect client (DESIGN.md §4, §6). */
export const up: Migration = async ({ context: qi }) => {
  await qi.createTable('partners', {
    id: { type: DataTypes.UUID, primaryKey: true },
    email: { type: DataTypes.STRING(254), allowNull: false },
    password_hash: { type: DataTypes.STRING(200), allowNull: false },
    company_name: { type: DataTypes.STRING(200), allowNull: false },
    contact_name: DataTypes.STRING(120),
    phone: DataTypes.STRING(32),
    website: DataTypes.STRING(300),
    business_type: DataTypes.STRING(40),
    status: { type: DataTypes.STRING(32), allowNull: false, defaultValue: 'active' },
    plan: { type: DataTypes.STRING(32), allowNull: false, defaultValue: 'starter' },
    login_attempts: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
    locked_until: DataTypes.DATE,
    last_login_at: DataTypes.DATE,
    created_at: { type: DataTypes.DATE, allowNull: false },
    updated_at: { type: DataTypes.DATE, allowNull: false },
  });
  await qi.sequelize.query('CREATE UNIQUE INDEX partners_email_lower_unique ON partners (LOWER(email))');

  await qi.createTable('sites', {
    id: { type: DataTypes.UUID, primaryKey: true },
    partner_id: {
      type: DataTypes.UUID,
      allowNull: false,
      references: { model: 'partners', key: 'id' },
      onDelete: 'CASCADE',
    },
    client_id: { type: DataTypes.STRING(64), allowNull: false },
    client_type: { type: DataTypes.STRING(16), allowNull: false },
    client_secret_hash: DataTypes.STRING(64),
    site_name: { type: DataTypes.STRING(120), allowNull: false },
    domain: { type: DataTypes.STRING(253), allowNull: false },
    description: DataTypes.TEXT,
    redirect_uris: { type: DataTypes.TEXT, allowNull: false },
    allowed_scopes: { type: DataTypes.TEXT, allowNull: false },
    icon_key: DataTypes.STRING(64),
    is_active: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: true },
    deleted_at: DataTypes.DATE,
    created_at: { type: DataTypes.DATE, allowNull: false },
    updated_at: { type: DataTypes.DATE, allowNull: false },
  });
  await qi.addIndex('sites', ['client_id'], { name: 'sites_client_id_unique', unique: true });
  await qi.addIndex('sites', ['partner_id', 'created_at'], { name: 'sites_partner_created' });

  await qi.createTable('site_icons', {
    site_id: {
      type: DataTypes.UUID,
      primaryKey: true,
      references: { model: 'sites', key: 'id' },
      onDelete: 'CASCADE',
    },
    key: { type: DataTypes.STRING(64), allowNull: false },
    content_type: { type: DataTypes.STRING(32), allowNull: false },
    bytes: { type: DataTypes.BLOB, allowNull: false },
    updated_at: { type: DataTypes.DATE, allowNull: false },
  });
  await qi.addIndex('site_icons', ['key'], { name: 'site_icons_key_unique', unique: true });
};

export const down: Migration = async ({ context: qi }) => {
  await qi.dropTable('site_icons');
  await qi.dropTable('sites');
  await qi.dropTable('partners');
};
