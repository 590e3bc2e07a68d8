/**
 * On SQLite a request is one job for one read worker: a body statement (compile-body.ts), whose one
 * row is the response body as a BLOB and its number of entries. The worker hands the bytes over
 * as they came from SQLite, moved (not copied) to the main thread, and keeps them when they are
 * above the response budget. A large body is lent from one of the worker's shared slabs instead,
 * and stays as it is until it is given back.
 */
import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { LARGE_BODY_BYTES } from '../../plugin/response-budget.js';
import { SLABS_PER_WORKER } from '../../plugin/sql/body-slabs.js';
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
    const ran = await pool.body(body, deadline(), Infinity);
    expect(Buffer.isBuffer(ran.value.bytes)).to.equal(true);
    expect(ran.value.bytes.toString()).to.equal('["two","three"]');
    expect(ran.value.rows).to.equal(2);
    expect(ran.value.size).to.equal('["two","three"]'.length);
    expect(ran.milliseconds).to.be.at.least(0);
  });

  it('keeps the response budget: a body above it is measured, not handed over', async () => {
    const ran = await pool.body(body, deadline(), 4);
    expect(ran.value.bytes.length).to.equal(0);
    expect(ran.value.size).to.equal('["two","three"]'.length);
    expect(ran.value.rows).to.equal(2);
  });

  it('reports a failing statement', async () => {
    const failure = await pool.body({ sql: 'SELECT CAST(missing AS BLOB), 0 FROM t', values: [] }, deadline(), Infinity).then(() => null, (error: Error) => error);
    expect(failure?.message).to.match(/no such column: missing/);
  });

  describe('a large body', () => {
    /** A body of `LARGE_BODY_BYTES` + 100 bytes, filled with its parameter's character. */
    const large = (fill: string) => pool.body({ sql: 'SELECT CAST(replace(hex(zeroblob(@p1)), \'00\', @p2) AS BLOB), 1', values: [LARGE_BODY_BYTES + 100, fill] }, deadline(), Infinity);
    const filled = (fill: string) => Buffer.alloc(LARGE_BODY_BYTES + 100, fill);

    it('is lent from shared memory until it is given back', async () => {
      const { value } = await large('a');
      expect(value.bytes.buffer).to.be.instanceOf(SharedArrayBuffer);
      expect(value.bytes.equals(filled('a'))).to.equal(true);
      expect(value.size).to.equal(LARGE_BODY_BYTES + 100);
      expect(pool.lentBodies()).to.equal(1);
      value.release!();
      value.release!();
      expect(pool.lentBodies()).to.equal(0);
    });

    it('stays as it is while lent, whatever the worker answers next; with every slab lent, the next body is moved', async () => {
      const lent = [];
      for (let index = 0; index < SLABS_PER_WORKER; index += 1) lent.push((await large(String.fromCharCode(98 + index))).value);
      const moved = (await large('z')).value;
      expect(moved.bytes.buffer).to.be.instanceOf(ArrayBuffer);
      expect(moved.release).to.equal(undefined);
      expect(moved.bytes.equals(filled('z'))).to.equal(true);
      lent.forEach((body, index) => expect(body.bytes.equals(filled(String.fromCharCode(98 + index))), `body ${index}`).to.equal(true));
      expect(pool.lentBodies()).to.equal(SLABS_PER_WORKER);
      lent[1]!.release!();
      const reused = (await large('y')).value;
      expect(reused.bytes.buffer).to.be.instanceOf(SharedArrayBuffer);
      expect(reused.bytes.equals(filled('y'))).to.equal(true);
      expect(lent[0]!.bytes.equals(filled('b'))).to.equal(true);
      for (const body of [...lent, reused]) body.release!();
      expect(pool.lentBodies()).to.equal(0);
    });

    it('is moved, not lent, when it is small', async () => {
      const { value } = await pool.body(body, deadline(), Infinity);
      expect(value.bytes.buffer).to.be.instanceOf(ArrayBuffer);
      expect(value.release).to.equal(undefined);
    });
  });
});
