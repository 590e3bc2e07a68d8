/**
 * The event loop's own read connection on a SQLite file, for statements too small to be worth a
 * read worker's round trip (about 60 µs there and back, against 50 µs for an entry with its
 * relations): sqlite-executor.ts sends them here when their request's estimate and their shape's
 * recent runs say they are tiny. Opened like the workers' connections (query-only, the same SQL
 * functions, no busy timeout), when first needed. A statement that finds the database locked by a
 * writer is handed back (null) to run on a worker, which may wait for the lock without stalling
 * the event loop; nothing here can stop a statement, which is why only tiny ones come.
 */
import Database from 'better-sqlite3';
import { registerSqlFunctions, type SqliteConnection } from '../storage/sql-functions.js';
import { isSqliteBusy } from '../storage/sqlite-busy.js';
import type { Statement } from './compile.js';
import { SqliteStatements, type BuiltBody } from './sqlite-statements.js';

export interface Ran<T> {
  readonly value: T;
  readonly milliseconds: number;
}

export class EventLoopReads {
  private database: Database.Database | null = null;
  private statements: SqliteStatements | null = null;
  /** Opening failed (the workers report why), or the executor closed: every statement goes to the workers. */
  private unavailable = false;

  constructor(private readonly filename: string) {}

  /** The first column of every row, or null when the statement must run on a worker. */
  column(sql: string, values: readonly unknown[]): Ran<unknown[]> | null {
    return this.run((statements) => statements.column(sql, values));
  }

  /** The body and its size (above `maxBytes`, only its size), or null when the statement must run on a worker. */
  body(statement: Statement, maxBytes: number): Ran<BuiltBody> | null {
    return this.run((statements) => statements.body(statement.sql, statement.values, maxBytes, statement.givenTotal));
  }

  close(): void {
    this.unavailable = true;
    this.database?.close();
    this.database = null;
    this.statements = null;
  }

  private run<T>(work: (statements: SqliteStatements) => T): Ran<T> | null {
    const statements = this.open();
    if (!statements) return null;
    const started = performance.now();
    try {
      const value = work(statements);
      return { value, milliseconds: performance.now() - started };
    } catch (error) {
      if (isSqliteBusy(error)) return null;
      throw error;
    }
  }

  private open(): SqliteStatements | null {
    if (this.statements || this.unavailable) return this.statements;
    try {
      const database = new Database(this.filename, { fileMustExist: true, timeout: 0 });
      database.pragma('query_only = ON');
      registerSqlFunctions(database as unknown as SqliteConnection);
      this.database = database;
      this.statements = new SqliteStatements(database, { readOnly: true });
    } catch {
      this.unavailable = true;
    }
    return this.statements;
  }
}
