/**
 * On SQLite a request is one job for one read worker: a body statement (compile-body.ts), whose one
 * row is the response body as a BLOB and its number of entries. The worker hands the bytes over
 * as they came from SQLite, moved (not copied) to the main thread, and keeps them when they are
 * above the response budget.
 */
import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { SqlitePool } from '../../plugin/sql/sqlite-pool.js';

describe('SQLite read workers: a body in one job', () => {
  let dir: string;
  let pool: SqlitePool;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sqlite-body-'));
    const file = join(dir, 'data.db');
    const database = new Database(file);
    database.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO t VALUES (1, 'one'), (2, 'two'), (3, 'three')");
    database.close();
    pool = new SqlitePool(file, 1);
    await pool.ready;
  });
  after(async () => {
    await pool.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const deadline = () => Date.now() + 10_000;
  const body = {
    sql: "SELECT CAST('[' || coalesce(group_concat(name, ','), '') || ']' AS BLOB), count(*) FROM (SELECT json_quote(name) AS name FROM t WHERE id >= @p1 ORDER BY id)",
    values: [2],
  };

  it('answers the body as bytes, with its entries and size', async () => {
    const ran = await pool.body(body.sql, body.values, deadline(), Infinity);
    expect(Buffer.isBuffer(ran.value.bytes)).to.equal(true);
    expect(ran.value.bytes.toString()).to.equal('["two","three"]');
    expect(ran.value.rows).to.equal(2);
    expect(ran.value.size).to.equal('["two","three"]'.length);
    expect(ran.milliseconds).to.be.at.least(0);
  });

  it('keeps the response budget: a body above it is measured, not handed over', async () => {
    const ran = await pool.body(body.sql, body.values, deadline(), 4);
    expect(ran.value.bytes.length).to.equal(0);
    expect(ran.value.size).to.equal('["two","three"]'.length);
    expect(ran.value.rows).to.equal(2);
  });

  it('reports a failing statement', async () => {
    const failure = await pool.body('SELECT CAST(missing AS BLOB), 0 FROM t', [], deadline(), Infinity).then(() => null, (error: Error) => error);
    expect(failure?.message).to.match(/no such column: missing/);
  });
});
