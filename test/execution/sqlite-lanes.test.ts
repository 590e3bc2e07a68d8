/**
 * SQLite read workers keep a lane for light statements: the last worker of a pool never runs a
 * heavy statement and keeps the normal scheduling priority, while the workers that may run heavy
 * ones run at a lower priority, so that the event loop and light statements go first when heavy
 * statements fill the cores.
 */
import { expect } from 'chai';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { SqlitePool } from '../../plugin/sql/sqlite-pool.js';

/** A thread's nice value (Linux: field 19 of /proc/self/task/<tid>/stat). */
function niceOf(tid: string | number): number {
  const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
}

/** The nice value of each thread of this process. */
function threadNiceValues(): number[] {
  return readdirSync('/proc/self/task').map(niceOf);
}

describe('SQLite read workers: a lane for light statements', function () {
  this.timeout(30_000);
  let dir: string;
  let file: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'sqlite-lanes-'));
    file = join(dir, 'data.db');
    const database = new Database(file);
    database.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO t VALUES (1, 'one')");
    database.close();
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const deadline = () => Date.now() + 20_000;
  /** About a second of work, whatever the machine: long enough to overlap the others. */
  const slow = { sql: 'WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000000) SELECT count(*) FROM n', values: [] };
  const quick = { sql: 'SELECT name FROM t WHERE id = @p1', values: [1] };

  it('runs the workers that may take heavy statements at a lower priority than the rest of the process', async function () {
    if (process.platform !== 'linux') this.skip();
    const before = threadNiceValues().filter((nice) => nice > 0).length;
    const lowered = () => threadNiceValues().filter((nice) => nice > 0).length - before;
    const pool = new SqlitePool(file, 3);
    try {
      await pool.ready;
      // The light worker and one heavy worker start with the pool; the other heavy one when two heavy statements run at once.
      expect(lowered()).to.equal(1);
      await Promise.all([pool.column(slow.sql, slow.values, deadline(), true), pool.column(slow.sql, slow.values, deadline(), true)]);
      expect(lowered()).to.equal(2);
      // The main thread's id is the process's (not always the lowest: thread ids wrap around).
      expect(niceOf(process.pid)).to.equal(0);
    } finally {
      await pool.close();
    }
  });

  it('starts a worker only when the started ones are busy', async () => {
    const threads = () => readdirSync('/proc/self/task').length;
    const before = threads();
    const pool = new SqlitePool(file, 4);
    try {
      await pool.ready;
      const started = threads() - before;
      // One statement at a time never needs more than the workers the pool started with.
      for (let index = 0; index < 5; index += 1) await pool.column(quick.sql, quick.values, deadline(), true);
      expect(threads() - before).to.equal(started);
      await Promise.all([1, 2, 3].map(() => pool.column(slow.sql, slow.values, deadline(), true)));
      // Three heavy statements at once: the two heavy workers not started yet started, each a thread of its own.
      expect(threads() - before).to.be.at.least(started + 2);
    } finally {
      await pool.close();
    }
  });

  it('keeps the light worker for light statements: a second heavy statement waits, a light one does not', async () => {
    const pool = new SqlitePool(file, 2);
    try {
      await pool.ready;
      const started = performance.now();
      const finished: string[] = [];
      const at = (name: string) => () => {
        finished.push(name);
        return performance.now() - started;
      };
      const first = pool.column(slow.sql, slow.values, deadline(), true).then(at('heavy 1'));
      const second = pool.column(slow.sql, slow.values, deadline(), true).then(at('heavy 2'));
      const light = pool.column(quick.sql, quick.values, deadline(), false).then(at('light'));
      const [firstDone, secondDone, lightDone] = await Promise.all([first, second, light]);
      expect(finished).to.deep.equal(['light', 'heavy 1', 'heavy 2']);
      expect(lightDone).to.be.below(firstDone / 2);
      // One after the other on the one worker that takes heavy statements, not side by side (side by
      // side, both end together). Not 2×: on a machine busy with other suites the first is slowed
      // more than the second.
      expect(secondDone).to.be.at.least(firstDone * 1.3);
    } finally {
      await pool.close();
    }
  });

  it('lets a pool of one worker run everything', async () => {
    const pool = new SqlitePool(file, 1);
    try {
      const [heavy, light] = await Promise.all([pool.column(quick.sql, quick.values, deadline(), true), pool.column(quick.sql, quick.values, deadline(), false)]);
      expect(heavy.value).to.deep.equal(['one']);
      expect(light.value).to.deep.equal(['one']);
    } finally {
      await pool.close();
    }
  });
});
