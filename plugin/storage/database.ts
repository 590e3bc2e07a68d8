/**
 * Database URLs and knex instances. `sqlite:<path>` opens (or creates) a SQLite file through
 * better-sqlite3; `postgres://…` or `postgresql://…` connects to PostgreSQL through pg;
 * `mysql://…` or `mariadb://…` connects to MariaDB or MySQL through mysql2 (mysql-session.ts).
 */
import { existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import knexFactory, { type Knex } from 'knex';
import { registerSqlFunctions, type SqliteConnection } from './sql-functions.js';
import { POSTGRES_SESSION } from './postgres-session.js';
import { mysqlConnectionConfig, MYSQL_KNEX_SESSION } from './mysql-session.js';

export type DatabaseClient = 'sqlite' | 'postgres' | 'mysql';

export interface DatabaseLocation {
  readonly client: DatabaseClient;
  /** sqlite: the file path (or `:memory:`); postgres, mysql: the connection string. */
  readonly target: string;
}

/** A database that cannot be opened or reached, said in one line that names it. */
export class DatabaseUnavailable extends Error {
  override readonly name = 'DatabaseUnavailable';
}

function isMemory(target: string): boolean {
  return target === ':memory:' || target.startsWith('file::memory:');
}

export function parseDatabaseUrl(url: string): DatabaseLocation {
  if (url.startsWith('sqlite:')) {
    const target = url.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, '');
    if (!target) throw new Error(`invalid database URL "${url}": expected sqlite:<path>`);
    return { client: 'sqlite', target };
  }
  if (/^postgres(ql)?:\/\//.test(url)) return { client: 'postgres', target: url };
  if (/^(mysql|mariadb):\/\//.test(url)) return { client: 'mysql', target: url };
  throw new Error(`invalid database URL "${withoutPassword(url)}": expected sqlite:<path>, postgres://user@host:port/database or mysql://user@host:port/database`);
}

/** A URL as messages may show it: its password, if any, replaced by `***`. */
export function withoutPassword(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:@/?#]*:)[^@/?#]*@/i, '$1***@');
}

/** The client of an open knex instance, as this package names it. */
export function clientOf(knex: Knex): DatabaseClient {
  const name = String(knex.client.config.client);
  if (name === 'mysql2' || name === 'mysql') return 'mysql';
  return name === 'pg' || name === 'postgres' || name === 'postgresql' ? 'postgres' : 'sqlite';
}

/** The rows of a `knex.raw` result: an array on SQLite, `{ rows }` on PostgreSQL, `[rows, fields]` from mysql2. */
export function rawRows<T = Record<string, unknown>>(knex: Knex, result: unknown): T[] {
  switch (clientOf(knex)) {
    case 'mysql':
      return (result as [T[], unknown])[0];
    case 'postgres':
      return (result as { rows: T[] }).rows;
    default:
      return result as T[];
  }
}

export interface OpenOptions {
  /** Largest PostgreSQL pool (default 10). */
  poolSize?: number;
  /** How long connecting to PostgreSQL, or waiting for a pooled connection, may take in ms (default 2000). */
  connectTimeout?: number;
  /** Refuse to create a SQLite file that does not exist (default false). */
  mustExist?: boolean;
}

export const DEFAULT_CONNECT_TIMEOUT_MS = 2000;

/**
 * knex prints pool errors (a refused connection, with its stack) to the console; the plugin
 * reports them itself, as a 503 to the caller or as one line from the CLI.
 */
const quietLog = { warn() {}, error() {}, deprecate() {}, debug() {} };

export function openDatabase(url: string | DatabaseLocation, options: OpenOptions = {}): Knex {
  const location = typeof url === 'string' ? parseDatabaseUrl(url) : url;
  if (location.client === 'sqlite') {
    // better-sqlite3 creates a missing file on first use, and knex cannot pass it fileMustExist.
    if (options.mustExist && !isMemory(location.target) && !existsSync(location.target)) {
      throw new DatabaseUnavailable(`the SQLite database ${location.target} does not exist (it is created only when the schema is synced)`);
    }
    // A new file may name a folder that does not exist yet (`sqlite:.data/content.db` in a fresh app): it is made too.
    if (!options.mustExist && !isMemory(location.target)) mkdirSync(dirname(location.target), { recursive: true });
    return knexFactory({
      client: 'better-sqlite3',
      connection: { filename: location.target },
      log: quietLog,
      useNullAsDefault: true,
      pool: {
        afterCreate(connection: SqliteConnection, done: (error: Error | null, connection: unknown) => void) {
          connection.pragma('foreign_keys = ON');
          connection.pragma('busy_timeout = 5000');
          registerSqlFunctions(connection);
          done(null, connection);
        },
      },
    });
  }
  const connectTimeout = options.connectTimeout ?? DEFAULT_CONNECT_TIMEOUT_MS;
  if (location.client === 'mysql') return openMysql(location.target, options, connectTimeout);
  const knex = knexFactory({
    client: 'pg',
    // Without a bound, a connection to an unreachable host waits for the kernel's TCP timeout.
    connection: { connectionString: location.target, connectionTimeoutMillis: connectTimeout },
    acquireConnectionTimeout: connectTimeout,
    log: quietLog,
    // The one-statement queries cross jit_above_cost; JIT compilation then costs more than it saves.
    // Planning one of them takes longer than running it (5 ms for a page of populate=*), and its
    // plan is the same nest of id lookups whatever the parameters: prepared statements keep one
    // generic plan instead of planning every execution. Datetimes are read and written as UTC,
    // also from a timestamptz column.
    pool: poolWithSession(options, POSTGRES_SESSION),
  });
  postgresOpenedHere.add(knex);
  return knex;
}

/** A knex pool whose every new connection first runs `session` (its settings). */
function poolWithSession(options: OpenOptions, session: string): Knex.PoolConfig {
  return {
    min: 0,
    max: options.poolSize ?? 10,
    afterCreate(connection: { query(sql: string, done: (error: Error | null) => void): void }, done: (error: Error | null, connection: unknown) => void) {
      connection.query(session, (error) => done(error, connection));
    },
  };
}

/** MariaDB or MySQL through mysql2, with the session settings of mysql-session.ts on every connection. */
function openMysql(url: string, options: OpenOptions, connectTimeout: number): Knex {
  return knexFactory({
    client: 'mysql2',
    connection: mysqlConnectionConfig(url, connectTimeout),
    acquireConnectionTimeout: connectTimeout,
    log: quietLog,
    pool: poolWithSession(options, MYSQL_KNEX_SESSION),
  });
}

/** The PostgreSQL databases openDatabase opened: their connections need POSTGRES_SESSION and nothing else. */
const postgresOpenedHere = new WeakSet<Knex>();

/**
 * Whether the plugin opened this PostgreSQL database itself, so that another thread may open
 * connections of its own to it with the same settings; a host's knex may set up its sessions in
 * ways only its own pool knows (a search_path, a role).
 */
export function openedByThePlugin(knex: Knex): boolean {
  return postgresOpenedHere.has(knex);
}

/**
 * The connection settings of a knex instance whose connection is given as an object, for
 * connections opened beside knex's pool (the MariaDB executor's pools, the PostgreSQL body
 * workers). knex keeps `password` as a non-enumerable property, so that logging the settings does
 * not print it: a spread or a structured clone of the object silently drops it.
 */
export function connectionSettingsOf(knex: Knex): Record<string, unknown> {
  const connection = knex.client.config.connection as Record<string, unknown>;
  return Object.fromEntries(Object.getOwnPropertyNames(connection).map((name) => [name, connection[name]]));
}
