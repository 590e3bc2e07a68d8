/**
 * CPU time of other processes, read from Linux's /proc: the server under test (with the workers
 * `serve --workers N` forks) and PostgreSQL's backends. A reading is a map from pid to CPU ms, so
 * that a process appearing between two readings (a worker forked, a backend connected) is counted
 * from zero rather than missed.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** CPU ms per process id at one moment. */
export type CpuReading = ReadonlyMap<number, number>;

/** Linux's USER_HZ: /proc reports CPU time in ticks of 10 ms on every usual kernel. */
const MS_PER_TICK = 10;

/** The fields of /proc/<pid>/stat after the parenthesized command name (which may hold spaces). */
function statFields(pid: number): string[] | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return text.slice(text.lastIndexOf(') ') + 2).split(' ');
  } catch {
    return null;
  }
}

/**
 * A process's user and system CPU time so far (ms), all its threads included (SQLite's read
 * workers are threads of the server); null when it is gone or /proc is absent.
 */
export function cpuMillis(pid: number): number | null {
  const fields = statFields(pid);
  // utime and stime are fields 14 and 15 of the whole line, 12 and 13 after the name.
  return fields ? (Number(fields[11]) + Number(fields[12])) * MS_PER_TICK : null;
}

/** `pid` and every process descended from it (cluster workers) alive now. */
export function processTree(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const parent = Number(statFields(Number(name))?.[1]);
    if (Number.isInteger(parent)) children.set(parent, [...(children.get(parent) ?? []), Number(name)]);
  }
  const tree: number[] = [];
  const pending = [pid];
  while (pending.length) {
    const next = pending.pop()!;
    tree.push(next);
    pending.push(...(children.get(next) ?? []));
  }
  return tree;
}

/** `pid` and every process descended from it (cluster workers), with their CPU ms now. */
export function processTreeCpu(pid: number): Map<number, number> {
  return pidsCpu(processTree(pid));
}

/** Readings of the given pids (those still alive). */
export function pidsCpu(pids: Iterable<number>): Map<number, number> {
  const reading = new Map<number, number>();
  for (const pid of pids) {
    const millis = cpuMillis(pid);
    if (millis !== null) reading.set(pid, millis);
  }
  return reading;
}

/**
 * CPU ms spent between two readings by the processes of the second. A process that exited in
 * between is lost (its time is no longer in /proc): the bench keeps its processes alive while it
 * measures.
 */
export function cpuSpent(before: CpuReading, after: CpuReading): number {
  let spent = 0;
  for (const [pid, millis] of after) spent += millis - (before.get(pid) ?? 0);
  return spent;
}

/** Both readings in one (pids do not collide: they are distinct live processes). */
export function mergeReadings(...readings: CpuReading[]): Map<number, number> {
  return new Map(readings.flatMap((reading) => [...reading]));
}
