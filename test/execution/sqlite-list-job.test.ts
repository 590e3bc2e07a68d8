/**
 * On SQLite a list's entries and its count run as one job in one read worker: a hop to a worker
 * costs about as much CPU as a small statement, and the count is small.
 */
import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { SqlitePool } from '../../plugin/sql/sqlite-pool.js';

describe('SQLite read workers: a list in one job', () => {
  let dir: string;
  let pool: SqlitePool;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sqlite-list-'));
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
  const entries = { sql: 'SELECT name FROM t WHERE id >= @p1 ORDER BY id LIMIT @p2', values: [2, 10] };
  const count = { sql: 'SELECT count(*) FROM t WHERE id >= @p1', values: [1] };

  it('answers the joined entries and the count, each with its own time', async () => {
    const ran = await pool.list(entries, count, deadline(), Infinity);
    expect(ran.entries.value.bytes.toString()).to.equal('two,three');
    expect(ran.entries.value.rows).to.equal(2);
    expect(ran.count.value).to.deep.equal([3]);
    expect(ran.entries.milliseconds).to.be.at.least(0);
    expect(ran.count.milliseconds).to.be.at.least(0);
  });

  it('keeps the response budget: entries above it are measured, not joined, and the count still runs', async () => {
    const ran = await pool.list(entries, count, deadline(), 4);
    expect(ran.entries.value.bytes.length).to.equal(0);
    expect(ran.entries.value.size).to.equal('two,three'.length);
    expect(ran.count.value).to.deep.equal([3]);
  });

  it('fails the whole job when the count fails', async () => {
    const failure = await pool.list(entries, { sql: 'SELECT count(missing) FROM t', values: [] }, deadline(), Infinity).then(() => null, (error: Error) => error);
    expect(failure?.message).to.match(/no such column: missing/);
  });
});
