/**
 * Writes to a PostgreSQL database, whoever made them, heard on one LISTEN connection per process:
 * the change triggers sync installs (storage/change-triggers.ts) send the written table's name
 * when its transaction commits. A lost connection is opened again; while it is down no body is
 * kept, and every body is dropped once it is back (notifications sent meanwhile are lost).
 */
import type { Knex } from 'knex';
import { CHANGES_CHANNEL, EVERY_TABLE } from '../storage/change-triggers.js';
import type { ChangeFeed } from './change-feed.js';
import type { ResponseCache } from './response-cache.js';

interface Notification {
  readonly channel: string;
  readonly payload?: string;
}

interface ListeningClient {
  query(sql: string): Promise<unknown>;
  on(event: 'notification', listener: (message: Notification) => void): void;
  on(event: 'error' | 'end', listener: (error?: Error) => void): void;
  removeAllListeners(): void;
}

/** The waits before opening a lost connection again, in ms; the last repeats. */
const RECONNECT_DELAYS = [0, 100, 500, 1000, 2000];

export class PostgresChanges implements ChangeFeed {
  private client: ListeningClient | null = null;
  private closed = false;
  private down = false;
  private attempts = 0;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly knex: Knex,
    private readonly cache: ResponseCache,
    /** Layout names by the name PostgreSQL stores (a name over 63 bytes is cut). */
    private readonly tables: ReadonlyMap<string, string>,
  ) {}

  window(): string {
    return 'the delay of a PostgreSQL notification (LISTEN)';
  }

  async start(): Promise<void> {
    await this.listen();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    const client = this.client;
    this.client = null;
    if (client) {
      client.removeAllListeners();
      client.on('error', () => undefined);
      await this.knex.client.destroyRawConnection(client).catch(() => undefined);
    }
  }

  private async listen(): Promise<void> {
    const client = (await this.knex.client.acquireRawConnection()) as ListeningClient;
    if (this.closed) {
      await this.knex.client.destroyRawConnection(client).catch(() => undefined);
      return;
    }
    client.on('notification', (message) => this.heard(message));
    client.on('error', () => this.lost(client));
    client.on('end', () => this.lost(client));
    await client.query(`LISTEN ${CHANGES_CHANNEL}`);
    this.client = client;
    this.attempts = 0;
    if (this.down) {
      this.down = false;
      this.cache.written(null);
    }
  }

  private heard(message: Notification): void {
    if (message.channel !== CHANGES_CHANNEL || !message.payload) return;
    if (message.payload === EVERY_TABLE) this.cache.invalidateAll();
    else this.cache.invalidate([this.tables.get(message.payload) ?? message.payload]);
  }

  private lost(client: ListeningClient): void {
    if (this.closed || client !== this.client) return;
    this.client = null;
    client.removeAllListeners();
    client.on('error', () => undefined);
    void this.knex.client.destroyRawConnection(client).catch(() => undefined);
    if (!this.down) {
      this.down = true;
      this.cache.writing(null);
    }
    this.reconnect();
  }

  private reconnect(): void {
    if (this.closed) return;
    const delay = RECONNECT_DELAYS[Math.min(this.attempts++, RECONNECT_DELAYS.length - 1)]!;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.listen().catch(() => this.reconnect());
    }, delay);
    this.timer.unref();
  }
}
