import type { RunnableMigration } from 'umzug';
import type { QueryInterface } from 'sequelize';
import * as createAccounts from './20261125000000-create-accounts';
import * as createAuditLogs from './20261125000100-create-audit-logs';
import * as createNewsletter from './20261125000200-create-newsletter';

/**
 * Every migration, in order. Listed explicitly (not globbed) so the bundled server carries them. Append new ones
 * at the end; never edit one that has shipped.
 */
const modules: Array<[string, { up: RunnableMigration<QueryInterface>['up']; down: RunnableMigration<QueryInterface>['down'] }]> = [
  ['20261125000000-create-accounts', createAccounts],
  ['20261125000100-create-audit-logs', createAuditLogs],
  ['20261125000200-create-newsletter', createNewsletter],
];

export const migrations: RunnableMigration<QueryInterface>[] = modules.map(([name, module]) => ({
  name,
  up: module.up,
  down: module.down,
}));
