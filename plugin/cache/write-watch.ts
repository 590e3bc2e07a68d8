/**
 * Every write this process makes through its knex instance, told to the response cache before
 * it runs and again once it has committed: the API's writes (one transaction each, write/
 * transaction.ts), uploads and the media library, end users and registration, `api.models`
 * (Objection models bound to the same knex), and the host's own `api.knex` statements. All of them
 * pass through knex's query events, so a new write path cannot forget to tell the cache.
 *
 * A write is announced (`writing`) from the event knex emits just before its statement runs. It
 * is done (`written`) after its commit: an autocommit statement once it has answered; a
 * transaction's once its connection has run the COMMIT or ROLLBACK — seen when the connection goes
 * back to the pool, or runs its next statement (a MariaDB write keeps its connection a moment
 * longer to release its locks). Until then no body read from its tables is kept.
 */
import type { Knex } from 'knex';
import type { ResponseCache } from './response-cache.js';
import { statementEffect } from './written-tables.js';

interface QueryEvent {
  readonly sql?: string;
  readonly __knexUid?: string;
}

/** A connection's write under way: the tables it announced (null: every table). */
interface Connection {
  inTransaction: boolean;
  /** COMMIT or ROLLBACK was sent: done once the connection is seen again. */
  ending: boolean;
  tables: Set<string> | null;
  writes: boolean;
}

interface Pool {
  on(event: 'release', listener: (resource: { __knexUid?: string }) => void): void;
  on(event: 'destroySuccess', listener: (eventId: number, resource: { __knexUid?: string }) => void): void;
  removeListener(event: string, listener: (...args: never[]) => void): void;
}

export class WriteWatch {
  private readonly connections = new Map<string, Connection>();
  private readonly onQuery = (event: QueryEvent) => this.query(event);
  private readonly onAnswer = (_response: unknown, event: QueryEvent) => this.answered(event);
  private readonly onError = (_error: unknown, event: QueryEvent) => this.answered(event);
  private readonly onRelease = (resource: { __knexUid?: string }) => this.released(resource.__knexUid);
  private readonly onDestroy = (_id: number, resource: { __knexUid?: string }) => this.released(resource.__knexUid);
  private readonly pool: Pool | null;

  constructor(
    private readonly knex: Knex,
    private readonly cache: ResponseCache,
  ) {
    knex.on('query', this.onQuery);
    knex.on('query-response', this.onAnswer);
    knex.on('query-error', this.onError);
    this.pool = (knex.client as { pool?: Pool }).pool ?? null;
    this.pool?.on('release', this.onRelease);
    this.pool?.on('destroySuccess', this.onDestroy);
  }

  close(): void {
    this.knex.removeListener('query', this.onQuery);
    this.knex.removeListener('query-response', this.onAnswer);
    this.knex.removeListener('query-error', this.onError);
    this.pool?.removeListener('release', this.onRelease);
    this.pool?.removeListener('destroySuccess', this.onDestroy);
  }

  private query(event: QueryEvent): void {
    const uid = event.__knexUid;
    if (uid === undefined || typeof event.sql !== 'string') return;
    this.seenAgain(uid);
    const effect = statementEffect(event.sql);
    if (effect.kind === 'none') return;
    if (effect.kind === 'begin') {
      this.connectionOf(uid).inTransaction = true;
      return;
    }
    const connection = this.connections.get(uid);
    if (effect.kind === 'write') this.announce(connection ?? this.connectionOf(uid), effect.tables);
    else if (connection?.writes) connection.ending = true;
    else this.connections.delete(uid);
  }

  /** The cache hears of each table once per transaction: before the first statement that writes it. */
  private announce(connection: Connection, tables: readonly string[] | null): void {
    connection.writes = true;
    if (connection.tables === null) return;
    if (tables === null) {
      this.cache.writing(null);
      this.cache.written(connection.tables);
      connection.tables = null;
      return;
    }
    const fresh = tables.filter((table) => !connection.tables!.has(table));
    if (!fresh.length) return;
    for (const table of fresh) connection.tables.add(table);
    this.cache.writing(fresh);
  }

  /** An autocommit write has answered: it has committed (or failed). */
  private answered(event: QueryEvent): void {
    const connection = event.__knexUid === undefined ? undefined : this.connections.get(event.__knexUid);
    if (connection && !connection.inTransaction) this.finish(event.__knexUid!, connection);
  }

  /** The connection runs another statement: a COMMIT or ROLLBACK it was sent has run, as has an autocommit write. */
  private seenAgain(uid: string): void {
    const connection = this.connections.get(uid);
    if (connection && (connection.ending || !connection.inTransaction)) this.finish(uid, connection);
  }

  /** Back in the pool, or closed: whatever it was doing is over. */
  private released(uid: string | undefined): void {
    const connection = uid === undefined ? undefined : this.connections.get(uid);
    if (connection) this.finish(uid!, connection);
  }

  private finish(uid: string, connection: Connection): void {
    this.connections.delete(uid);
    if (connection.writes) this.cache.written(connection.tables);
  }

  private connectionOf(uid: string): Connection {
    let connection = this.connections.get(uid);
    if (!connection) this.connections.set(uid, (connection = { inTransaction: false, ending: false, tables: new Set(), writes: false }));
    return connection;
  }
}
