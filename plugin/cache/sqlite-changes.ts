/**
 * Writes to a SQLite file from elsewhere — another process (`--workers`, a Strapi admin, the
 * sqlite3 shell) or another connection of this one — seen through `PRAGMA data_version` on the
 * connection this process writes with: it changes when any other connection has committed, and
 * never for this connection's own commits, which the write watch already told (write-watch.ts).
 * SQLite does not say which tables changed: every body is dropped.
 *
 * Read every `intervalMs` while bodies are kept, less often while none are (change-feed.ts `due`).
 */
import type { Knex } from 'knex';
import { DataVersion, type VersionedConnection } from '../sql/sqlite-known-totals.js';
import type { ResponseCache } from './response-cache.js';
import { due, type ChangeFeed } from './change-feed.js';

export class SqliteChanges implements ChangeFeed {
  private connection: VersionedConnection | null = null;
  private reader: DataVersion | null = null;
  private version: unknown = undefined;
  private timer: NodeJS.Timeout | null = null;
  private reading: Promise<void> | null = null;
  private ticks = 0;

  constructor(
    private readonly knex: Knex,
    private readonly cache: ResponseCache,
    private readonly intervalMs: number,
  ) {}

  readonly window = (): string => `${this.intervalMs} ms (PRAGMA data_version, read every ${this.intervalMs} ms)`;

  async start(): Promise<void> {
    await this.read();
    this.timer = setInterval(() => {
      if (this.reading || !due(this.cache, ++this.ticks)) return;
      this.reading = this.read().finally(() => (this.reading = null));
    }, this.intervalMs);
    this.timer.unref();
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.reading?.catch(() => undefined);
  }

  private async read(): Promise<void> {
    const connection = (await this.knex.client.acquireConnection()) as VersionedConnection;
    try {
      if (connection !== this.connection) {
        // A new writing connection (the pool replaced it): what happened in between is not known.
        if (this.connection) this.cache.invalidateAll();
        this.connection = connection;
        this.reader = new DataVersion(connection);
        this.version = this.reader.read();
        return;
      }
      const version = this.reader!.read();
      if (version !== this.version) {
        this.version = version;
        this.cache.invalidateAll();
      }
    } finally {
      await this.knex.client.releaseConnection(connection);
    }
  }
}
