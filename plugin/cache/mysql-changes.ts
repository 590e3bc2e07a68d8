/**
 * Writes to a MariaDB database, whoever made them, read from the versions table the change
 * triggers keep (storage/change-triggers.ts): one row per table, one more at each row written,
 * visible once the write commits. Read on a connection of its own every `intervalMs` while bodies
 * are kept, less often while none are (change-feed.ts `due`); a table whose version moved has its
 * bodies dropped. While the connection is down no
 * body is kept; once it is back every body is dropped.
 */
import type { Knex } from 'knex';
import { EVERY_TABLE, VERSIONS_TABLE } from '../storage/change-triggers.js';
import { due, type ChangeFeed } from './change-feed.js';
import type { ResponseCache } from './response-cache.js';

interface QueryingConnection {
  query(sql: string, done: (error: Error | null, rows: unknown) => void): void;
  on(event: 'error', listener: (error: Error) => void): void;
}

export class MysqlChanges implements ChangeFeed {
  private connection: QueryingConnection | null = null;
  private versions = new Map<string, string>();
  private timer: NodeJS.Timeout | null = null;
  private reading: Promise<void> | null = null;
  private down = false;
  private closed = false;
  private ticks = 0;

  constructor(
    private readonly knex: Knex,
    private readonly cache: ResponseCache,
    private readonly intervalMs: number,
  ) {}

  window(): string {
    return `${this.intervalMs} ms (the versions table, read every ${this.intervalMs} ms)`;
  }

  async start(): Promise<void> {
    await this.read();
    this.timer = setInterval(() => {
      if (this.reading || !(this.down || due(this.cache, ++this.ticks))) return;
      this.reading = this.read().catch(() => this.lose()).finally(() => (this.reading = null));
    }, this.intervalMs);
    this.timer.unref();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    await this.reading;
    if (this.connection) await this.knex.client.destroyRawConnection(this.connection).catch(() => undefined);
  }

  private async read(): Promise<void> {
    if (!this.connection) {
      const connection = (await this.knex.client.acquireRawConnection()) as QueryingConnection;
      connection.on('error', () => undefined);
      if (this.closed) return void (await this.knex.client.destroyRawConnection(connection).catch(() => undefined));
      this.connection = connection;
    }
    const rows = await query(this.connection, `SELECT table_name AS name, CAST(version AS CHAR) AS version FROM ${VERSIONS_TABLE}`);
    const versions = new Map(rows.map((row) => [row.name, row.version]));
    if (this.down) {
      this.down = false;
      this.versions = versions;
      this.cache.written(null);
      return;
    }
    const changed = [...versions].filter(([name, version]) => this.versions.has(name) && this.versions.get(name) !== version).map(([name]) => name);
    this.versions = versions;
    if (changed.includes(EVERY_TABLE)) this.cache.invalidateAll();
    else if (changed.length) this.cache.invalidate(changed);
  }

  /** The connection failed: no body is kept until it is back, and none kept before survives. */
  private lose(): void {
    const connection = this.connection;
    this.connection = null;
    if (connection) void this.knex.client.destroyRawConnection(connection).catch(() => undefined);
    if (!this.down && !this.closed) {
      this.down = true;
      this.cache.writing(null);
    }
  }
}

function query(connection: QueryingConnection, sql: string): Promise<{ name: string; version: string }[]> {
  return new Promise((resolve, reject) => connection.query(sql, (error, rows) => (error ? reject(error) : resolve(rows as { name: string; version: string }[]))));
}
