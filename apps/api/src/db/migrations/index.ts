import type { RunnableMigration } from 'umzug';
import type { QueryInterface } from 'sequelize';
import * as createAccounts from './20261125000000-create-accounts';
import * as createAuditLogs from './20261125000100-create-audit-logs';
import * as createNewsletter from './20261125000200-create-newsletter';
import * as createPartnersSites from './20261125010000-create-partners-sites';
import * as createOidc from './20261125010100-create-oidc';
import * as createVerifications from './20261125020000-create-verifications';
import * as createWebhooksBilling from './20261126040000-create-webhooks-billing';
import * as createLoginFailuresMailOutbox from './20261126020000-create-login-failures-mail-outbox';
import * as allowProfileEmailScopes from './20261126020100-allow-profile-email-scopes';
import * as addMailOutboxKind from './20261126020200-add-mail-outbox-kind';
import * as createApiKeys from './20261126030000-create-api-keys';
import * as createPartnerStats from './20261126030100-create-partner-stats';
import * as addPartnerEmailVerified from './20261126030200-add-partner-email-verified';
import * as createAdmins from './20261126010000-create-admins';
import * as adminListIndexes from './20261126010100-admin-list-indexes';
import * as adminFilterIndexes from './20261126010200-admin-filter-indexes';
import * as usersLiveIndex from './20261126010300-users-live-index';
import * as createDocumentClaims from './20261126050000-create-document-claims';
import * as adminPageIndexes from './20261126120000-admin-page-indexes';
import * as adminTrigramSearch from './20261126120100-admin-trigram-search';
import * as partnerStatsTokenIndex from './20261126130000-partner-stats-token-index';
import * as sitesUniqueLiveName from './20261126130100-sites-unique-live-name';
import * as hashOidcArtefactIds from './20261127020000-hash-oidc-artefact-ids';
import * as addSandboxIndexes from './20261127040000-add-sandbox-indexes';
import * as createWallet from './20261127060000-create-wallet';
import * as createCardChecks from './20261127080000-create-card-checks';
import * as createAlertStates from './20261127100000-create-alert-states';
import * as createWalletClients from './20261127100000-create-wallet-clients';
import * as oauthAuthorizationsPartnerUserIndex from './20261127100100-oauth-authorizations-partner-user-index';
import * as createLivenessChallenges from './20261127120000-create-liveness-challenges';

/**
 * Every migration, in order. Listed explicitly (not globbed) so the bundled server carries them. Append new ones
 * at the end; never edit one that has shipped.
 */
const modules: Array<
  [string, { up: RunnableMigration<QueryInterface>['up']; down: RunnableMigration<QueryInterface>['down'] }]
> = [
  ['20261125000000-create-accounts', createAccounts],
  ['20261125000100-create-audit-logs', createAuditLogs],
  ['20261125000200-create-newsletter', createNewsletter],
  ['20261125010000-create-partners-sites', createPartnersSites],
  ['20261125010100-create-oidc', createOidc],
  ['20261125020000-create-verifications', createVerifications],
  ['20261126040000-create-webhooks-billing', createWebhooksBilling],
  ['20261126020000-create-login-failures-mail-outbox', createLoginFailuresMailOutbox],
  ['20261126020100-allow-profile-email-scopes', allowProfileEmailScopes],
  ['20261126020200-add-mail-outbox-kind', addMailOutboxKind],
  ['20261126030000-create-api-keys', createApiKeys],
  ['20261126030100-create-partner-stats', createPartnerStats],
  ['20261126030200-add-partner-email-verified', addPartnerEmailVerified],
  ['20261126010000-create-admins', createAdmins],
  ['20261126010100-admin-list-indexes', adminListIndexes],
  ['20261126010200-admin-filter-indexes', adminFilterIndexes],
  ['20261126010300-users-live-index', usersLiveIndex],
  ['20261126050000-create-document-claims', createDocumentClaims],
  ['20261126120000-admin-page-indexes', adminPageIndexes],
  ['20261126120100-admin-trigram-search', adminTrigramSearch],
  ['20261126130000-partner-stats-token-index', partnerStatsTokenIndex],
  ['20261126130100-sites-unique-live-name', sitesUniqueLiveName],
  ['20261127020000-hash-oidc-artefact-ids', hashOidcArtefactIds],
  ['20261127040000-add-sandbox-indexes', addSandboxIndexes],
  ['20261127060000-create-wallet', createWallet],
  ['20261127080000-create-card-checks', createCardChecks],
  ['20261127100000-create-alert-states', createAlertStates],
  ['20261127100000-create-wallet-clients', createWalletClients],
  ['20261127100100-oauth-authorizations-partner-user-index', oauthAuthorizationsPartnerUserIndex],
  ['20261127120000-create-liveness-challenges', createLivenessChallenges],
];

export const migrations: RunnableMigration<QueryInterface>[] = modules.map(([name, module]) => ({
  name,
  up: module.up,
  down: module.down,
}));
