import type { Migration } from '../migration';

/**
 * What a sandbox API key may read (issue 21 item 7) — only sandbox sites' statistics, tokens and audit entries — is
 * read through these two indexes, so that a partner's live volume does not slow its sandbox key down:
 *
 * - `verifications_partner_sandbox`: the partner's sandbox verifications in time order (partial: sandbox rows only),
 *   for the sandbox figures, which the roll-ups of migration 20261126030100 count only in total;
 * - `audit_logs_partner_site`: the partner's audit entries by the site their details name (`details.site_id`), so
 *   the sandbox key's audit log reads the entries of its sandbox sites without parsing every entry of the partner.
 *   The expression is the one the query uses (modules/partners/stats/audit-log.ts: `auditSiteExpression`).
 */
export const up: Migration = async ({ context: qi }) => {
  const postgres = qi.sequelize.getDialect() === 'postgres';
  await qi.addIndex('verifications', ['partner_id', 'created_at'], {
    name: 'verifications_partner_sandbox',
    where: { sandbox: true },
  });
  await qi.sequelize.query(
    postgres
      ? `CREATE INDEX audit_logs_partner_site ON audit_logs (partner_id, ((details::jsonb) ->> 'site_id'))`
      : `CREATE INDEX audit_logs_partner_site ON audit_logs (partner_id, json_extract(details, '$.site_id'))`,
  );
};

export const down: Migration = async ({ context: qi }) => {
  await qi.sequelize.query('DROP INDEX IF EXISTS audit_logs_partner_site');
  await qi.removeIndex('verifications', 'verifications_partner_sandbox');
};
