/**
 * One thread of the busy floor (floor-busy.ts): a read worker's connection on the benched file,
 * the statement prepared once and run in a loop from the start signal until the end time; it
 * answers how many runs it made.
 */
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import type { Statement } from '../plugin/sql/compile.js';
import { registerSqlFunctions, type SqliteConnection } from '../plugin/storage/sql-functions.js';
import { warmStatement } from './warm-statement.js';

export interface FloorThreadSetup {
  readonly file: string;
  readonly statement: Statement;
}

const setup = workerData as FloorThreadSetup;
const database = new Database(setup.file, { fileMustExist: true, timeout: 0 });
database.pragma('query_only = ON');
registerSqlFunctions(database as unknown as SqliteConnection);
const run = warmStatement(database, setup.statement);
for (let index = 0; index < 8; index += 1) run();
parentPort!.postMessage('ready');
parentPort!.once('message', (until: number) => {
  let runs = 0;
  while (Date.now() < until) {
    run();
    runs += 1;
  }
  database.close();
  parentPort!.postMessage(runs);
});
