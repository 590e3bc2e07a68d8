/**
 * Throwaway databases for tests: a temporary SQLite file, a database of its own on the
 * PostgreSQL server that `TEST_DATABASE_URL` (or `DATABASE_URL`) names, or on the MariaDB or
 * MySQL server that `TEST_MYSQL_URL` names. Each is created empty and removed by drop().
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Knex } from 'knex';
import { openDatabase, type DatabaseClient } from '../storage/database.js';

export interface TestDatabase {
  readonly client: DatabaseClient;
  readonly url: string;
  readonly knex: Knex;
  /** Closes the connections and removes the database. */
  drop(): Promise<void>;
}

/** The PostgreSQL server tests may create databases on, if any. */
export function postgresServerUrl(): string | null {
  return process.env.TEST_DATABASE_URL || process.env.DATABASE_URL || null;
}

/** The MariaDB or MySQL server tests may create databases on, if any. */
export function mysqlServerUrl(): string | null {
  return process.env.TEST_MYSQL_URL || null;
}

/** A new empty database of the given kind. */
export async function createTestDatabase(client: DatabaseClient): Promise<TestDatabase> {
  if (client === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'content-api-test-'));
    return openTestDatabase(client, `sqlite:${join(dir, 'test.db')}`, async () => rmSync(dir, { recursive: true, force: true }));
  }
  const name = `content_api_test_${randomBytes(6).toString('hex')}`;
  if (client === 'mysql') {
    const server = mysqlServerUrl();
    if (!server) throw new Error('TEST_MYSQL_URL is not set');
    await runOnServer(server, `CREATE DATABASE "${name}" CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
    return openTestDatabase(client, withDatabaseName(server, name), () => runOnServer(server, `DROP DATABASE IF EXISTS "${name}"`));
  }
  const server = postgresServerUrl();
  if (!server) throw new Error('TEST_DATABASE_URL is not set');
  await runOnServer(server, `CREATE DATABASE "${name}"`);
  return openTestDatabase(client, withDatabaseName(server, name), () => runOnServer(server, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
}

/** The database at `url`; drop() closes its connections first, then runs `remove`. */
function openTestDatabase(client: DatabaseClient, url: string, remove: () => Promise<void>): TestDatabase {
  const knex = openDatabase(url);
  return {
    client,
    url,
    knex,
    async drop() {
      await knex.destroy();
      await remove();
    },
  };
}

/** Runs one statement on the database `server` names, over a connection of its own: a database cannot create or drop itself. */
async function runOnServer(server: string, sql: string): Promise<void> {
  const admin = openDatabase(server, { poolSize: 1 });
  try {
    await admin.raw(sql);
  } finally {
    await admin.destroy();
  }
}

/** The same server URL pointing at another database. */
export function withDatabaseName(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}
