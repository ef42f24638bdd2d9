import { DataTypes } from 'sequelize';
import type { Migration } from '../migration';

/**
 * Sign-in hardening and durability (issue 15, issue 16 item 5):
 * - `login_failures`: sign-in failure counters per (account, client address), per client address and per account
 *   (modules/users/accounts/lockout.ts), incremented and read back in one statement. Keys and `account_key` are SHA-256
 *   hashes, so the table holds no addresses. Times are epoch milliseconds.
 * - `oidc_payloads.account_id`: the account a provider session, grant or token belongs to, so that ending an
 *   account's sign-in deletes its provider sessions and tokens in the database (every replica sees it at once).
 * - `mail_outbox`: mail written in the transaction of the action that sends it and delivered by the job runner
 *   with retries (modules/shared/notifications/outbox.ts), so an acknowledged action never loses its mail.
 * - `oidc_issuers`: the issuer each replica announced at start, to warn when replicas disagree.
 */
export const up: Migration = async ({ context: qi }) => {
  await qi.createTable('login_failures', {
    key: { type: DataTypes.STRING(64), primaryKey: true },
    account_key: DataTypes.STRING(64),
    failures: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
    last_failure_at: { type: DataTypes.BIGINT, allowNull: false },
    blocked_until: { type: DataTypes.BIGINT, allowNull: false, defaultValue: 0 },
  });
  await qi.addIndex('login_failures', ['account_key'], { name: 'login_failures_account' });
  await qi.addIndex('login_failures', ['last_failure_at'], { name: 'login_failures_last_failure' });

  await qi.addColumn('oidc_payloads', 'account_id', { type: DataTypes.STRING(64), allowNull: true });
  await qi.addIndex('oidc_payloads', ['account_id', 'model'], { name: 'oidc_payloads_account' });

  await qi.createTable('mail_outbox', {
    id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
    recipient: { type: DataTypes.STRING(320), allowNull: false },
    subject: { type: DataTypes.STRING(998), allowNull: false },
    text_body: { type: DataTypes.TEXT, allowNull: false },
    html_body: DataTypes.TEXT,
    created_at: { type: DataTypes.BIGINT, allowNull: false },
    available_at: { type: DataTypes.BIGINT, allowNull: false },
    attempts: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
    locked_until: { type: DataTypes.BIGINT, allowNull: false, defaultValue: 0 },
    sent_at: DataTypes.BIGINT,
    last_error: DataTypes.TEXT,
  });
  await qi.addIndex('mail_outbox', ['sent_at', 'available_at'], { name: 'mail_outbox_pending' });

  await qi.createTable('oidc_issuers', {
    replica_id: { type: DataTypes.STRING(128), primaryKey: true },
    issuer: { type: DataTypes.STRING(1024), allowNull: false },
    announced_at: { type: DataTypes.BIGINT, allowNull: false },
  });
};

export const down: Migration = async ({ context: qi }) => {
  await qi.dropTable('oidc_issuers');
  await qi.dropTable('mail_outbox');
  await qi.removeIndex('oidc_payloads', 'oidc_payloads_account');
  await qi.removeColumn('oidc_payloads', 'account_id');
  await qi.dropTable('login_failures');
};
