import type { Migration } from '../migration';

/**
 * The partner statistics count each user already verified when they consented once (partner-stats/service.ts
 * consentFigures): the partner's grants grouped by user, read in that order from this index instead of sorted.
 */
export const up: Migration = async ({ context: qi }) => {
  await qi.addIndex('oauth_authorizations', ['partner_id', 'user_id', 'created_at'], {
    name: 'oauth_authorizations_partner_user',
  });
};

export const down: Migration = async ({ context: qi }) => {
  await qi.removeIndex('oauth_authorizations', 'oauth_authorizations_partner_user');
};
