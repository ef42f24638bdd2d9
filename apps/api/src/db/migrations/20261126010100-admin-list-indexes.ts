import type { Migration } from '../migration';

/**
 * Indexes for the back office's token and authorization lists (issue 9 "Performance"): active tokens by expiry
 * within their model, and active grants by state, so that a page and its total_count read index ranges only.
 */
export const up: Migration = async ({ context: qi }) => {
  await qi.addIndex('oidc_payloads', ['model', 'expires_at'], { name: 'oidc_payloads_model_expires' });
  await qi.addIndex('oauth_authorizations', ['revoked_at', 'expires_at'], {
    name: 'oauth_authorizations_state',
  });
};

export const down: Migration = async ({ context: qi }) => {
  await qi.removeIndex('oauth_authorizations', 'oauth_authorizations_state');
  await qi.removeIndex('oidc_payloads', 'oidc_payloads_model_expires');
};
