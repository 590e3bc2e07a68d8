/**
 * `serve --workers N`: N processes (node:cluster) behind one port, so that every core answers.
 * The primary prepares the database once (sync, seed) before the workers start, prints the
 * address once they all listen, replaces a worker that dies while serving, passes SIGHUP on
 * (permissions reload), and on SIGTERM or SIGINT has every worker drain and stop. Workers take
 * their stop from the primary only: a terminal's Ctrl-C reaches the whole process group, and a
 * second signal would cut their drain short.
 */
import cluster, { type Worker } from 'node:cluster';

export function isClusterWorker(): boolean {
  return cluster.isWorker;
}

/**
 * What a worker process gets beside the primary's environment: glibc's mmap threshold fixed at
 * 256 KB unless the environment sets it. glibc otherwise raises it to the size of each large block
 * freed, and then keeps the memory of megabyte bodies in its per-thread heaps once they are freed:
 * one process under bench:memory's mixed load peaked 103 MB lower with it (docs/performance.md).
 * glibc reads it when a process starts, so only the processes serve forks can be given it.
 */
const WORKER_ENVIRONMENT = process.env.MALLOC_MMAP_THRESHOLD_ === undefined ? { MALLOC_MMAP_THRESHOLD_: '262144' } : {};

/** The first worker forked: it speaks for all of them where one line is enough. */
export function isFirstWorker(): boolean {
  return cluster.worker?.id === 1;
}

/** In a worker: the signals that stop it (SIGINT is left to the primary, and ignored here). */
export function workerStopSignals(): NodeJS.Signals[] {
  process.on('SIGINT', () => undefined);
  return ['SIGTERM'];
}

/** In a worker that has stopped serving: closes the channel to the primary, which would keep the process alive. */
export function leaveCluster(): void {
  cluster.worker?.disconnect();
}

/**
 * Forks `count` workers running the same command and supervises them until a stop signal; settles
 * with the exit code. A worker that exits before listening stops the whole server (it would fail
 * again), with code 1.
 */
export async function superviseWorkers(count: number, announce: (port: number) => void): Promise<number> {
  const listened = new WeakSet<Worker>();
  let stopping = false;
  let failed = false;
  let listening = 0;
  const workers = new Set<Worker>();
  // Workers accept from the shared socket themselves: with the primary handing connections out in
  // turn, one handed to a worker that has just died would hang, unanswered and never closed.
  cluster.schedulingPolicy = cluster.SCHED_NONE;
  const fork = () => workers.add(cluster.fork(WORKER_ENVIRONMENT));
  const stopAll = () => {
    stopping = true;
    for (const worker of workers) if (!worker.isDead()) worker.process.kill('SIGTERM');
  };
  const allExited = new Promise<void>((resolve) => {
    cluster.on('exit', (worker, code, signal) => {
      workers.delete(worker);
      if (!stopping && listened.has(worker)) {
        process.stderr.write(`content-api: worker ${worker.process.pid} exited (${signal ?? code}); starting another\n`);
        fork();
      } else if (!stopping) {
        process.stderr.write(`content-api: worker ${worker.process.pid} exited (${signal ?? code}) before listening; stopping\n`);
        failed = true;
        stopAll();
      }
      if (stopping && workers.size === 0) resolve();
    });
  });
  cluster.on('listening', (worker, address) => {
    if (listened.has(worker)) return;
    listened.add(worker);
    listening += 1;
    if (listening === count) announce(address.port);
  });
  for (let index = 0; index < count; index += 1) fork();
  process.on('SIGHUP', () => {
    for (const worker of workers) worker.process.kill('SIGHUP');
  });
  process.once('SIGINT', stopAll);
  process.once('SIGTERM', stopAll);
  await allExited;
  return failed ? 1 : 0;
}
