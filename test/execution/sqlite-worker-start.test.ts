/**
 * Starting SQLite read workers (sql/sqlite-pool.ts, sqlite-worker.ts): a worker that opens while
 * another connection holds the database locked (sync changing the journal mode or the schema at
 * start) waits for the lock instead of failing, and one that cannot open the file fails with an
 * Error naming SQLite's reason — not with the plain object a SqliteError becomes when it crosses
 * from a worker thread.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { expect } from 'chai';
import { SqlitePool } from '../../plugin/sql/sqlite-pool.js';

describe('SQLite read workers starting', function () {
  this.timeout(30_000);
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'content-api-worker-start-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('wait for a lock another connection holds while they open, then serve', async () => {
    const file = join(dir, 'locked.db');
    const writer = new Database(file);
    writer.exec('CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (1), (2);');
    // A rollback journal and an exclusive transaction: nobody may read the schema until it ends.
    writer.exec('BEGIN EXCLUSIVE; INSERT INTO t VALUES (3);');
    const pool = new SqlitePool(file, 2);
    try {
      setTimeout(() => writer.exec('COMMIT'), 400);
      const started = Date.now();
      await pool.ready;
      expect(Date.now() - started).to.be.at.least(300);
      const { value } = await pool.column('SELECT count(*) FROM t', [], Date.now() + 5_000);
      expect(value).to.deep.equal([3]);
    } finally {
      await pool.close();
      writer.close();
    }
  });

  it("fail with an Error that names SQLite's reason when the file is not a database", async () => {
    const file = join(dir, 'not-a-database.db');
    writeFileSync(file, 'this is a text file, not a SQLite database: its header says nothing SQLite knows.\n'.repeat(20));
    const pool = new SqlitePool(file, 2);
    try {
      const failure = await pool.ready.then(
        () => null,
        (error: unknown) => error,
      );
      expect(failure).to.be.instanceOf(Error);
      expect((failure as Error).message).to.match(/SQLITE_NOTADB/);
    } finally {
      await pool.close();
    }
  });
});
