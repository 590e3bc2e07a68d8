/**
 * The SQLite floor with every core busy: the statement run in a loop on one thread per core at
 * once, each with its own connection, as the server's read workers run statements side by side
 * under a 10-connection load. The plain floor (floor.ts) runs one loop on an idle machine; on this
 * kind of machine a statement costs up to 1.7× more CPU when the other core works too, which is
 * the machine, not the server. CPU per run: this process's CPU (every thread) over all the runs.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { Statement } from '../plugin/sql/compile.js';
import type { FloorThreadSetup } from './floor-thread.js';

const THREAD_URL = new URL('./floor-thread.js', import.meta.url);

export async function measureBusyFloor(file: string, statement: Statement, seconds: number, threads = availableParallelism()): Promise<number> {
  const setup: FloorThreadSetup = { file, statement };
  const workers = Array.from({ length: threads }, () => new Worker(THREAD_URL, { workerData: setup }));
  try {
    await Promise.all(workers.map((worker) => message(worker)));
    const before = process.cpuUsage();
    const until = Date.now() + seconds * 1000;
    const counted = workers.map((worker) => message<number>(worker));
    for (const worker of workers) worker.postMessage(until);
    const runs = (await Promise.all(counted)).reduce((sum, each) => sum + each, 0);
    const spent = process.cpuUsage(before);
    return (spent.user + spent.system) / 1000 / Math.max(1, runs);
  } finally {
    await Promise.all(workers.map((worker) => worker.terminate()));
  }
}

function message<T>(worker: Worker): Promise<T> {
  return new Promise((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
}
