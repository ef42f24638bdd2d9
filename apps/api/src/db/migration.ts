import type { QueryInterface } from 'sequelize';
import type { MigrationFn } from 'umzug';

/**
 * The shape of one hand-written migration (STYLE.md). Its own file, so that the migrations name it without
 * importing the migrator, which imports them.
 */
export type Migration = MigrationFn<QueryInterface>;
