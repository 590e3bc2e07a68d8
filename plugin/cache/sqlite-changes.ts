/**
 * Writes to a SQLite file from elsewhere — another process (`--workers`, a Strapi admin, the
 * sqlite3 shell) or another connection of this one — seen through `PRAGMA data_version` on the
 * connection this process writes with: it changes when any other connection has committed, and
 * never for this connection's own commits, which the write watch already told (write-watch.ts).
 * SQLite does not say which tables changed: every body is dropped.
 *
 * Read every `intervalMs` while bodies are kept, less often while none are (change-feed.ts `due`).
 * A read that fails (the writing connection not had in time) cannot say what changed: until one
 * succeeds no body is kept, and then every body is dropped.
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
  private down = false;

  constructor(
    private readonly knex: Knex,
    private readonly cache: ResponseCache,
    private readonly intervalMs: number,
  ) {}

  window(): string {
    return `${this.intervalMs} ms (PRAGMA data_version, read every ${this.intervalMs} ms)`;
  }

  async start(): Promise<void> {
    await this.read();
    this.timer = setInterval(() => {
      if (this.reading || !(this.down || due(this.cache, ++this.ticks))) return;
      this.reading = this.read()
        .catch(() => this.lose())
        .finally(() => (this.reading = null));
    }, this.intervalMs);
    this.timer.unref();
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.reading;
  }

  private async read(): Promise<void> {
    const connection = (await this.knex.client.acquireConnection()) as VersionedConnection;
    try {
      if (connection !== this.connection || this.down) {
        // A first read, a new writing connection (the pool replaced it) or one after a failure: what happened before is not known.
        if (this.connection) this.cache.invalidateAll();
        this.connection = connection;
        this.reader = new DataVersion(connection);
        this.version = this.reader.read();
        if (this.down) {
          this.down = false;
          this.cache.written(null);
        }
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

  private lose(): void {
    if (this.down) return;
    this.down = true;
    this.cache.writing(null);
  }
}
