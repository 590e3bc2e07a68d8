/** The dialect of each engine, by the client `clientOf` names. */
import type { Knex } from 'knex';
import { clientOf, type DatabaseClient } from '../../storage/database.js';
import type { Dialect } from './dialect.js';
import { mysqlDialect } from './mysql.js';
import { postgresDialect } from './postgres.js';
import { sqliteDialect } from './sqlite.js';

export const DIALECTS: Readonly<Record<DatabaseClient, Dialect>> = { sqlite: sqliteDialect, postgres: postgresDialect, mysql: mysqlDialect };

export function dialectOf(knex: Knex): Dialect {
  return DIALECTS[clientOf(knex)];
}
