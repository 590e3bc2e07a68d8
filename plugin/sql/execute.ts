/**
 * Runs compiled statements: the only code that talks to the database on the request path. Every
 * statement passes admission control (admission.ts) and carries its request's deadline. SQLite
 * reads run in worker threads (sqlite-executor.ts); PostgreSQL statements are named prepared
 * statements with `statement_timeout` as the deadline, spread over read replicas when there are
 * some (postgres-executor.ts). Each read is one statement whose one value is the response body,
 * handed over as bytes.
 */
import type { Knex } from 'knex';
import { clientOf } from '../storage/database.js';
import type { ExecutionOptions, Executor } from './executor.js';
import { mysqlExecutor } from './mysql-executor.js';
import { postgresExecutor } from './postgres-executor.js';
import { sqliteExecutor } from './sqlite-executor.js';

export { DEFAULT_TIMEOUT_MS, type ExecutionOptions, type ExecutionStats, type Executor, type BuiltBody, type StatementHints } from './executor.js';

export function createExecutor(knex: Knex, options: ExecutionOptions = {}): Executor {
  const client = clientOf(knex);
  if (client === 'mysql') return mysqlExecutor(knex, options);
  return client === 'postgres' ? postgresExecutor(knex, options) : sqliteExecutor(knex, options);
}
