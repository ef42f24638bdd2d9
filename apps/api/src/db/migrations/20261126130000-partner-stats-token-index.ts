import type { Migration } from '../migration';

/**
 * GET /partners/stats (issue 10, p95 < 200 ms at 1,000,000 verifications): the partner's active and revoked token
 * counts and its latest revocations read one index range each, not every authorization the partner ever had.
 *
 * - active tokens: `partner_id = ? AND revoked_at IS NULL AND expires_at > now`, a range of this index alone;
 * - revoked tokens and the ten latest revocations: `partner_id = ? AND revoked_at IS NOT NULL`, in revoked_at order.
 *
 * The verification figures need nothing new: they come from the roll-ups of migration 20261126030100, and the ten
 * latest verifications from `verifications_partner_created`.
 */
export const up: Migration = async ({ context: qi }) => {
  await qi.addIndex('oauth_authorizations', ['partner_id', 'revoked_at', 'expires_at'], {
    name: 'oauth_authorizations_partner_revoked',
  });
};

export const down: Migration = async ({ context: qi }) => {
  await qi.removeIndex('oauth_authorizations', 'oauth_authorizations_partner_revoked');
};
