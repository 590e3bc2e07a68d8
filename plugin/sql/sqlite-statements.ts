/**
 * Runs read statements on one better-sqlite3 connection with its prepared statements cached per
 * SQL text: the same code serves the read workers and in-process execution. A body statement
 * (compile-body.ts) hands its one value over as a BLOB, which better-sqlite3 turns into a Buffer
 * without decoding UTF-8: the database's bytes go to the socket as they are.
 */
import { weakEtag } from '../format/etag.js';
import type { GivenTotal } from './compile.js';
import { sqliteDialect } from './dialect/sqlite.js';
import { ownBuffer } from './body-slabs.js';
import { KnownTotals } from './sqlite-known-totals.js';

interface Prepared {
  all(bindings: unknown): unknown[];
}

export interface SqliteReadConnection {
  prepare(sql: string): { pluck(toggle?: boolean): Prepared & { get(): unknown }; raw(toggle?: boolean): Prepared };
}

/**
 * Prepared statements a connection keeps per mode, the least recently used dropped first. A
 * prepared populate statement holds about 100 KB of SQLite's memory (q3 95 KB, q17 102 KB; a list
 * 21 KB), and every read worker keeps its own: at 500 a mode, a stream of new shapes (random
 * queries) grew each worker by up to 100 MB. An application sends a few dozen shapes; a new shape
 * costs one prepare (0.05–0.9 ms for the bench's).
 */
const MAX_CACHED_STATEMENTS = 100;
/** SQLite's default SQLITE_MAX_LENGTH, which better-sqlite3 keeps. */
const SQLITE_MAX_LENGTH = 1_000_000_000;

export interface BuiltBody {
  /**
   * The response body, in a buffer of its own (transferable), or lent from a read worker's shared
   * memory (see `release`); empty when `size` is above the budget.
   */
  readonly bytes: Buffer;
  /** Entries in the body. */
  readonly rows: number;
  /** The body's length in bytes, also when it was above the budget and is not handed over. */
  readonly size: number;
  /** The body's weak ETag, when the executor computed it beside the statement (a SQLite read worker). */
  readonly etag?: string;
  /**
   * Present when the bytes are lent from a read worker's shared memory (sql/body-slabs.ts): call it
   * once nothing reads them any more (the router does when the response has closed), so that the
   * worker may write its next body there. Until then, the bytes stay as they are.
   */
  readonly release?: () => void;
  /** The list's total was known (sqlite-known-totals.ts): the statement did not count. */
  readonly totalKnown?: boolean;
}

/** A body statement's row: the body, its entries, and, from a list's statement that counted, its total. */
type BodyRow = [Buffer, number, number?];

export class SqliteStatements {
  /** Per mode: pluck and raw are modes of a prepared statement. */
  private readonly columns = new Map<string, Prepared>();
  private readonly rows = new Map<string, Prepared>();
  /** Statements prepared on the connection so far, cached or since dropped. */
  private prepareCount = 0;
  /** Lists' totals, on a connection that never writes (a write of its own would not change its data version). */
  private readonly totals: KnownTotals | null;

  constructor(
    private readonly connection: SqliteReadConnection,
    options: { readOnly?: boolean } = {},
  ) {
    this.totals = options.readOnly ? new KnownTotals(connection) : null;
  }

  get prepares(): number {
    return this.prepareCount;
  }

  /** The first column of every row. */
  column(sql: string, values: readonly unknown[]): unknown[] {
    return this.prepared(this.columns, sql, (statement) => statement.pluck(true)).all(sqliteDialect.bindings(values));
  }

  /**
   * The body a body statement built, with its ETag; above `maxBytes`, only its size. A list's
   * statement with a twin (`givenTotal`) runs as the twin when its total is known.
   */
  body(sql: string, values: readonly unknown[], maxBytes: number, givenTotal?: GivenTotal): BuiltBody {
    try {
      return this.bodyOf(sql, values, maxBytes, givenTotal);
    } catch (error) {
      // Above SQLite's longest value (1 GB): far above any budget, refused as such.
      if ((error as { code?: unknown }).code === 'SQLITE_TOOBIG') return { bytes: Buffer.alloc(0), rows: 0, size: SQLITE_MAX_LENGTH + 1 };
      throw error;
    }
  }

  private bodyOf(sql: string, values: readonly unknown[], maxBytes: number, givenTotal?: GivenTotal): BuiltBody {
    const bindings = sqliteDialect.bindings(values) as Record<string, unknown>;
    const { totals } = this;
    if (!givenTotal || !totals) return this.built(this.bodyRow(sql, bindings), maxBytes);
    const key = totals.key(givenTotal, bindings);
    const known = totals.known(key);
    if (known) {
      const row = this.bodyRow(givenTotal.sql, { ...bindings, total: known.total });
      if (totals.version() === known.version) return this.built(row, maxBytes, true);
      // Another connection committed since the total was counted: this body may be newer than it.
      totals.forget(key);
    }
    // Kept under the version read before the statement: a commit while it ran makes it stale at once.
    const version = totals.version();
    const row = this.bodyRow(sql, bindings);
    totals.keep(key, row[2]!, version);
    return this.built(row, maxBytes);
  }

  private bodyRow(sql: string, bindings: Record<string, unknown>): BodyRow {
    return (this.prepared(this.rows, sql, (statement) => statement.raw(true)).all(bindings) as BodyRow[])[0]!;
  }

  private built([body, rows]: BodyRow, maxBytes: number, totalKnown = false): BuiltBody {
    const known = totalKnown ? { totalKnown } : {};
    if (body.length > maxBytes) return { bytes: Buffer.alloc(0), rows, size: body.length, ...known };
    return { bytes: ownBuffer(body), rows, size: body.length, etag: weakEtag(body), ...known };
  }

  private prepared(cache: Map<string, Prepared>, sql: string, mode: (statement: ReturnType<SqliteReadConnection['prepare']>) => Prepared): Prepared {
    let prepared = cache.get(sql);
    if (prepared) {
      // Used again: to the end of the map's order, the last to be dropped.
      cache.delete(sql);
    } else {
      prepared = mode(this.connection.prepare(sql));
      this.prepareCount += 1;
      if (cache.size >= MAX_CACHED_STATEMENTS) cache.delete(cache.keys().next().value as string);
    }
    cache.set(sql, prepared);
    return prepared;
  }
}
