/**
 * The prepared statements a SQLite connection keeps: a bounded number per mode (each holds SQLite
 * memory, in every read worker), the least recently used dropped first, so that a stream of new
 * shapes never evicts the shapes in use.
 */
import { expect } from 'chai';
import Database from 'better-sqlite3';
import { SqliteStatements, type SqliteReadConnection } from '../../plugin/sql/sqlite-statements.js';

describe('SQLite prepared statements kept per connection', () => {
  let database: Database.Database;
  let prepared: string[];
  let statements: SqliteStatements;
  beforeEach(() => {
    database = new Database(':memory:');
    database.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO t VALUES (1, 'one')");
    prepared = [];
    // The real connection, with a record of what it was asked to prepare.
    const counting: SqliteReadConnection = {
      prepare: (sql: string) => {
        prepared.push(sql);
        return database.prepare(sql) as unknown as ReturnType<SqliteReadConnection['prepare']>;
      },
    };
    statements = new SqliteStatements(counting);
  });
  afterEach(() => database.close());

  /** A statement of its own shape for each n (a different constant is a different SQL text). */
  const shape = (n: number) => `SELECT name FROM t WHERE id = @p1 AND ${n} = ${n}`;

  it('keeps a shape used again while a stream of new shapes passes, and answers from it', () => {
    const hot = 'SELECT name FROM t WHERE id = @p1';
    for (let n = 0; n < 300; n += 1) {
      statements.column(shape(n), [1]);
      if (n % 20 === 0) expect(statements.column(hot, [1])).to.deep.equal(['one']);
    }
    expect(prepared.filter((sql) => sql === hot)).to.have.length(1);
  });

  it('prepares a shape again once 100 others were used after it', () => {
    statements.column(shape(0), [1]);
    for (let n = 1; n <= 99; n += 1) statements.column(shape(n), [1]);
    statements.column(shape(0), [1]);
    expect(prepared.filter((sql) => sql === shape(0))).to.have.length(1);
    for (let n = 100; n <= 199; n += 1) statements.column(shape(n), [1]);
    statements.column(shape(0), [1]);
    expect(prepared.filter((sql) => sql === shape(0))).to.have.length(2);
  });
});
