#!/usr/bin/env node
/**
 * `npm test`: every compiled suite, split over up to three mocha processes that run side by side,
 * then one line `N passed, N failed` (and `, N pending`) for all of them, and a nonzero exit code
 * when any failed.
 *
 * The split is by the full title of each test (its describe blocks and its own title), so that
 * every test runs in exactly one process whatever its title says:
 *   - postgres: titles that name PostgreSQL;
 *   - mysql: titles that name MariaDB or MySQL and not PostgreSQL;
 *   - the rest (SQLite, and what needs no database server) in the first process.
 * A suite run once per engine puts the engine's name in its title, so each database server is
 * mostly worked by one process, and the waits of one (servers starting, retries, outages) are
 * spent while the others run. Without TEST_DATABASE_URL or TEST_MYSQL_URL their process is not
 * started: its tests would all be skipped anyway.
 *
 * Each process writes to its own log; a log is printed whole when its process ends (so that the
 * outputs do not interleave), and what was written so far is printed if the run is stopped.
 *
 *   node test/support/run-suites.mjs [mocha arguments…]     (after a build; extra arguments go to every process)
 *   TEST_SERIAL=1 …                                          one process, every test, as `npx mocha` runs them
 * A `--grep` of the caller's runs in one process too.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, openSync, closeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const SUITES = ['dist/test/**/*.test.js', 'dist/examples/**/*.test.js'];
// mocha reads `/…/i` as a regular expression with its flags: the names in any case.
const POSTGRES = 'postgres';
const MYSQL = 'mysql|mariadb';
const hasPostgres = Boolean(process.env.TEST_DATABASE_URL || process.env.DATABASE_URL);
const hasMysql = Boolean(process.env.TEST_MYSQL_URL);

const extra = process.argv.slice(2);
/** A selection of the caller's own (`npm test -- --grep conformance`) is run as given, in one process. */
const selectsItself = extra.some((argument) => /^(--grep|-g|--fgrep|-f|--invert|-i)(=|$)/.test(argument));

/** The processes to start: a name and the grep arguments that select its share. */
function shares() {
  if (process.env.TEST_SERIAL === '1' || selectsItself) return [{ name: 'all', grep: [] }];
  const list = [{ name: 'sqlite and the rest', grep: ['--grep', `/${POSTGRES}|${MYSQL}/i`, '--invert'] }];
  if (hasPostgres) list.push({ name: 'postgres', grep: ['--grep', `/${POSTGRES}/i`] });
  // Titles naming both engines are the postgres process's.
  if (hasMysql) list.push({ name: 'mysql', grep: ['--grep', `/^(?!.*(${POSTGRES})).*(${MYSQL})/i`] });
  // Without a server to give its share to, a name in a title selects nothing: one process.
  return list.length === 1 ? [{ name: 'all', grep: [] }] : list;
}

const mocha = join(process.cwd(), 'node_modules', 'mocha', 'bin', 'mocha.js');
const started = Date.now();

function runShare(share, index, logs) {
  const logFile = join(logs, `${index}.log`);
  const fd = openSync(logFile, 'w');
  const env = { ...process.env };
  if (env.TEST_TIMINGS) env.TEST_TIMINGS = env.TEST_TIMINGS.replace(/(\.json)?$/, `.${index}$1`);
  const child = spawn(process.execPath, [mocha, ...SUITES, ...share.grep, ...extra], { stdio: ['ignore', fd, fd], env });
  closeSync(fd);
  return {
    share,
    logFile,
    child,
    done: new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code: code ?? 1, signal }))),
  };
}

function printLog(run, note) {
  const text = readFileSync(run.logFile, 'utf8');
  process.stdout.write(`\n===== ${run.share.name}${note} =====\n${text}`);
  return text;
}

/** The `N passed, N failed[, N pending]` line a process's reporter ended with, as numbers. */
function summaryOf(text) {
  const lines = text.trimEnd().split('\n');
  for (let index = lines.length - 1; index >= 0; index -= 1) {
    const match = /^(\d+) passed, (\d+) failed(?:, (\d+) pending)?$/.exec(lines[index]);
    if (match) return { passed: Number(match[1]), failed: Number(match[2]), pending: Number(match[3] ?? 0) };
  }
  return null;
}

const planned = shares();
if (planned.length === 1) {
  // One process: its output as it comes, its summary line last, its exit code.
  const child = spawn(process.execPath, [mocha, ...SUITES, ...extra], { stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => (process.exitCode = code ?? (signal ? 1 : 0)));
} else {
  await runSide(planned);
}

/** The processes side by side, each output printed whole when it ends, then the sum of their summaries. */
async function runSide(planned) {
  const logs = mkdtempSync(join(tmpdir(), 'content-api-suites-'));
  const runs = planned.map((share, index) => runShare(share, index, logs));
  console.log(`running the suites in ${runs.length} process${runs.length > 1 ? 'es' : ''}: ${runs.map((run) => run.share.name).join('; ')}`);

  let stopping = false;
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      for (const run of runs) {
        run.child.kill('SIGTERM');
        printLog(run, ' (stopped)');
      }
      process.exit(1);
    });
  }

  const totals = { passed: 0, failed: 0, pending: 0 };
  let exitCode = 0;
  await Promise.all(
    runs.map(async (run) => {
      const { code, signal } = await run.done;
      const text = printLog(run, `: exit ${signal ?? code} after ${Math.round((Date.now() - started) / 1000)} s`);
      const summary = summaryOf(text);
      if (!summary) {
        // A process that ended without its summary (a crash) counts as a failure of its own.
        totals.failed += 1;
        exitCode = 1;
        return;
      }
      totals.passed += summary.passed;
      totals.failed += summary.failed;
      totals.pending += summary.pending;
      if (code !== 0) exitCode = code;
    }),
  );
  rmSync(logs, { recursive: true, force: true });
  process.stdout.write(`${totals.passed} passed, ${totals.failed} failed${totals.pending > 0 ? `, ${totals.pending} pending` : ''}\n`);
  // Not process.exit(): it would drop what the pipe to the reader has not taken yet (the logs are long).
  process.exitCode = exitCode;
}
