/**
 * A copy of the small conformance fixture that the test can lock against readers, so that a
 * request waits in the database for as long as the test wants: on SQLite a writer's EXCLUSIVE
 * lock (the fixture keeps Strapi's rollback journal when served with sync off), on PostgreSQL an
 * ACCESS EXCLUSIVE lock on the articles table in an open transaction, on MariaDB a session's
 * `LOCK TABLES articles WRITE` (InnoDB's readers never wait for row locks). Nothing is written.
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { Knex } from 'knex';
import { openDatabase, type DatabaseClient } from '../../plugin/storage/database.js';
import { fixtureDatabase } from './api.js';
import { conformanceKitDir } from './conformance-kit.js';

export interface LockableDatabase {
  /** Serve it with `sync: false` (`--no-sync`), so SQLite keeps its rollback journal. */
  readonly url: string;
  /** Readers of `articles` wait from now on. */
  lock(): Promise<void>;
  unlock(): Promise<void>;
  close(): Promise<void>;
}

export async function lockableDatabase(client: DatabaseClient): Promise<LockableDatabase> {
  if (client === 'mysql') return lockableMysql(await fixtureDatabase('mysql'));
  return client === 'sqlite' ? lockableSqlite() : lockablePostgres(await fixtureDatabase('postgres'));
}

function lockableSqlite(): LockableDatabase {
  const dir = mkdtempSync(join(tmpdir(), 'content-api-lockable-'));
  const file = join(dir, 'strapi-small.db');
  copyFileSync(join(conformanceKitDir(), 'db', 'strapi-small.db'), file);
  const writer = new Database(file);
  return {
    url: `sqlite:${file}`,
    lock: async () => void writer.exec('BEGIN EXCLUSIVE'),
    unlock: async () => void (writer.inTransaction && writer.exec('ROLLBACK')),
    close: async () => {
      writer.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function lockablePostgres(url: string): LockableDatabase {
  const knex = openDatabase(url);
  let transaction: Knex.Transaction | null = null;
  const unlock = async () => {
    await transaction?.rollback();
    transaction = null;
  };
  return {
    url,
    lock: async () => {
      transaction = await knex.transaction();
      await transaction.raw('LOCK TABLE articles IN ACCESS EXCLUSIVE MODE');
    },
    unlock,
    close: async () => {
      await unlock();
      await knex.destroy();
    },
  };
}

function lockableMysql(url: string): LockableDatabase {
  const knex = openDatabase(url, { poolSize: 1 });
  let connection: unknown = null;
  const unlock = async () => {
    if (connection === null) return;
    await knex.raw('UNLOCK TABLES').connection(connection);
    await knex.client.releaseConnection(connection);
    connection = null;
  };
  return {
    url,
    lock: async () => {
      connection = await knex.client.acquireConnection();
      await knex.raw('LOCK TABLES articles WRITE').connection(connection);
    },
    unlock,
    close: async () => {
      await unlock();
      await knex.destroy();
    },
  };
}
