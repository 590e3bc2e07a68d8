/**
 * Runs read statements on one better-sqlite3 connection with its prepared statements cached per
 * SQL text: the same code serves the read workers and in-process execution. Entries come back as
 * one buffer, the rows' bytes joined with commas: the database's UTF-8 goes to the socket without
 * being decoded into JavaScript strings and encoded again.
 */
import { sqliteDialect } from './dialect/sqlite.js';

export interface SqliteReadConnection {
  prepare(sql: string): { pluck(toggle?: boolean): { all(bindings: unknown): unknown[] } };
}

type Prepared = { all(bindings: unknown): unknown[] };

const MAX_CACHED_STATEMENTS = 500;
const COMMA = Buffer.from(',');

export interface JoinedRows {
  /** Every row's first column, joined with commas, in a buffer of its own (transferable); empty when `size` is above the budget. */
  readonly bytes: Buffer;
  readonly rows: number;
  /** The joined length in bytes, also when it was above the budget and nothing was joined. */
  readonly size: number;
}

export class SqliteStatements {
  private readonly cache = new Map<string, Prepared>();

  constructor(private readonly connection: SqliteReadConnection) {}

  /** The first column of every row. */
  column(sql: string, values: readonly unknown[]): unknown[] {
    return this.prepared(sql).all(sqliteDialect.bindings(values));
  }

  /** The first column of every row, as bytes joined with commas; nothing is joined above `maxBytes`. */
  joined(sql: string, values: readonly unknown[], maxBytes: number): JoinedRows {
    const rows = this.column(sql, values).map((value) => (Buffer.isBuffer(value) ? value : Buffer.from(String(value))));
    const parts: Buffer[] = [];
    rows.forEach((row, index) => parts.push(...(index ? [COMMA, row] : [row])));
    const length = parts.reduce((sum, part) => sum + part.length, 0);
    if (length > maxBytes) return { bytes: Buffer.alloc(0), rows: rows.length, size: length };
    // A buffer of its own (not a slice of Node's pool), so that a worker can transfer it.
    const bytes = Buffer.from(new ArrayBuffer(length));
    let offset = 0;
    for (const part of parts) offset += part.copy(bytes, offset);
    return { bytes, rows: rows.length, size: length };
  }

  private prepared(sql: string): Prepared {
    let prepared = this.cache.get(sql);
    if (!prepared) {
      prepared = this.connection.prepare(sql).pluck(true);
      if (this.cache.size >= MAX_CACHED_STATEMENTS) this.cache.delete(this.cache.keys().next().value as string);
      this.cache.set(sql, prepared);
    }
    return prepared;
  }
}
