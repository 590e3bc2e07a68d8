/**
 * Resident memory of a process tree, read from Linux's /proc: the server under test with the
 * processes `serve --workers N` forks (its read worker threads share their process's memory).
 * The sum counts a page shared by two processes twice (code, the database file's pages in the
 * page cache are not resident memory): it is what `ps` and a container's per-process figures show.
 */
import { readFileSync } from 'node:fs';
import { processTree } from './proc-cpu.js';

/** A process's resident set (VmRSS) in bytes; null when it is gone. */
export function residentBytes(pid: number): number | null {
  try {
    const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/** The resident bytes of `pid` and its descendants now. */
export function processTreeRss(pid: number): number {
  return processTree(pid).reduce((sum, each) => sum + (residentBytes(each) ?? 0), 0);
}

/** Samples a tree's RSS every `everyMs` until stopped: the largest sample, and the last. */
export function sampleRss(pid: number, everyMs = 100): { stop(): { peak: number; last: number } } {
  let peak = processTreeRss(pid);
  let last = peak;
  const timer = setInterval(() => {
    last = processTreeRss(pid);
    peak = Math.max(peak, last);
  }, everyMs);
  return {
    stop() {
      clearInterval(timer);
      last = processTreeRss(pid);
      return { peak: Math.max(peak, last), last };
    },
  };
}
