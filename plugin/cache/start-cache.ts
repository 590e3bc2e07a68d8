/**
 * The response cache of one API, put together at start: the cache, the watch on this process's
 * writes, and the feed of writes made elsewhere for the database's engine — or, on a PostgreSQL or
 * MariaDB database without change triggers, the time bound the operator gave. Says at start how
 * late a write from elsewhere may be seen (`summary`).
 */
import type { Knex } from 'knex';
import type { Registry } from '../schema/registry.js';
import { tablesWithoutTriggers, watchedTables } from '../storage/change-triggers.js';
import { clientOf } from '../storage/database.js';
import { storedName } from '../storage/inspect.js';
import { CachedReads } from './cached-read.js';
import type { ChangeFeed } from './change-feed.js';
import { MysqlChanges } from './mysql-changes.js';
import { cacheSettings, formatByteSize, type CacheOptions } from './options.js';
import { PostgresChanges } from './postgres-changes.js';
import { ResponseCache, type CacheCounters } from './response-cache.js';
import { SqliteChanges } from './sqlite-changes.js';
import { WriteWatch } from './write-watch.js';

/** What the API tells of its cache (`api.cache`). */
export interface CacheStatus {
  /** One line for the operator: the size and how late a write from elsewhere may be seen. */
  readonly summary: string;
  readonly counters: Readonly<CacheCounters>;
  /** Bytes held now. */
  bytes(): number;
}

export interface StartedCache {
  readonly reads: CachedReads;
  readonly status: CacheStatus;
  close(): Promise<void>;
}

export class CacheWithoutTriggers extends Error {
  override readonly name = 'CacheWithoutTriggers';
}

export async function startCache(knex: Knex, registry: Registry, options: CacheOptions, hasReplicas: boolean): Promise<StartedCache> {
  const settings = cacheSettings(options);
  if (hasReplicas) throw new Error('the response cache cannot be used with read replicas: a replica behind the primary would keep an older answer after the change was heard');
  const tables = watchedTables(registry);
  const missing = await tablesWithoutTriggers(knex, tables);
  if (missing.length && settings.maxAgeMs === undefined) {
    throw new CacheWithoutTriggers(
      `the response cache needs the database's change triggers, which ${missing.length} of its tables lack (${missing.slice(0, 3).join(', ')}${missing.length > 3 ? ', …' : ''}): ` +
        `start with sync on, or run "content-api sync --change-triggers" — or give the cache a time bound (cache.maxAge, serve --cache-max-age MS) within which writes from elsewhere may go unseen`,
    );
  }
  const cache = new ResponseCache(settings);
  const watch = new WriteWatch(knex, cache);
  const feed = changeFeed(knex, cache, settings.pollMs, missing.length > 0, tables);
  try {
    await feed?.start();
  } catch (error) {
    watch.close();
    throw error;
  }
  const size = `response cache of ${formatByteSize(settings.maxBytes)}`;
  const bound = settings.maxAgeMs === undefined ? '' : `; bodies are served for ${settings.maxAgeMs} ms at most`;
  const summary = feed
    ? `${size}: writes through this process drop the answers they change at once, writes from elsewhere within ${feed.window()}${bound}`
    : missing.length
      ? `${size}: writes through this process drop the answers they change at once; the database has no change triggers, so an answer may be up to ${settings.maxAgeMs} ms older than a write from elsewhere`
      : `${size}: writes drop the answers they change at once${bound}`;
  return {
    reads: new CachedReads(cache),
    status: { summary, counters: cache.counters, bytes: () => cache.bytes },
    async close() {
      watch.close();
      await feed?.close();
    },
  };
}

function changeFeed(knex: Knex, cache: ResponseCache, pollMs: number, withoutTriggers: boolean, tables: readonly string[]): ChangeFeed | null {
  const client = clientOf(knex);
  if (client === 'sqlite') return inMemory(knex) ? null : new SqliteChanges(knex, cache, pollMs);
  if (withoutTriggers) return null;
  if (client === 'mysql') return new MysqlChanges(knex, cache, pollMs);
  return new PostgresChanges(knex, cache, new Map(tables.map((table) => [storedName('postgres', table), table])));
}

/** An in-memory SQLite database: no other connection can write it. */
function inMemory(knex: Knex): boolean {
  const filename = String((knex.client.config.connection as { filename?: unknown } | undefined)?.filename ?? '');
  return filename === ':memory:' || filename.startsWith('file::memory:');
}
