/**
 * The prepared statements a SQLite connection keeps: a bounded number per mode (each holds SQLite
 * memory, in every read worker), the least recently used dropped first, so that a stream of new
 * shapes never evicts the shapes in use; and a read worker that has prepared many opens its
 * connection afresh (which frees the dropped ones) and serves on as before.
 */
import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { ServiceUnavailableError } from '../../plugin/errors.js';
import { SqlitePool } from '../../plugin/sql/sqlite-pool.js';
import { SqliteStatements, type SqliteReadConnection } from '../../plugin/sql/sqlite-statements.js';
import { CHECKPOINT_FUNCTION } from '../../plugin/storage/sql-functions.js';

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

describe('a SQLite read worker after many new statement shapes', function () {
  this.timeout(60_000);
  let dir: string;
  let file: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'sqlite-reopen-'));
    file = join(dir, 'data.db');
    const database = new Database(file);
    database.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO t VALUES (1, 'één')");
    database.close();
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('answers, folds case and stops at its deadline as before, on its reopened connection', async () => {
    const pool = new SqlitePool(file, 1);
    try {
      const deadline = () => Date.now() + 20_000;
      // More new shapes than a worker prepares before it reopens its connection, twice over.
      for (let n = 0; n < 1_200; n += 1) {
        const { value } = await pool.column(`SELECT id FROM t WHERE id = @p1 AND ${n} = ${n}`, [1], deadline());
        expect(value).to.deep.equal([1]);
      }
      // The plugin's SQL functions are there on the new connection: its upper() folds every letter, and its checkpoint cancels.
      expect((await pool.column('SELECT upper(name) FROM t WHERE id = @p1', [1], deadline())).value).to.deep.equal(['ÉÉN']);
      const endless = `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE ${CHECKPOINT_FUNCTION}() AND i < 1000000000) SELECT count(*) FROM n`;
      const started = Date.now();
      const stopped = await pool.column(endless, [], Date.now() + 200).then(
        () => null,
        (error: unknown) => error,
      );
      expect(stopped).to.be.instanceOf(ServiceUnavailableError);
      expect(Date.now() - started).to.be.below(5_000);
      expect((await pool.column('SELECT name FROM t WHERE id = @p1', [1], deadline())).value).to.deep.equal(['één']);
    } finally {
      await pool.close();
    }
  });
});
