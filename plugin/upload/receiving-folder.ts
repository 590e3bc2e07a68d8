/**
 * The temporary folders uploads are received in: one per request, removed when it ends. A server
 * killed during an upload cannot remove its folder, so each name carries the pid of its process
 * (`content-api-upload-<pid>-XXXXXX`), and a starting server removes the folders of processes
 * that are gone. Several servers and test runs share one tmpdir: a folder whose process is alive
 * is never touched. Folders named before the pid was part of the name (`content-api-upload-XXXXXX`)
 * have no owner to ask: they are removed once older than a day, longer than any upload lasts.
 */
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const PREFIX = 'content-api-upload-';
const OWNED = /^content-api-upload-(\d+)-[A-Za-z0-9]{6}$/;
const LEGACY = /^content-api-upload-[A-Za-z0-9]{6}$/;
const LEGACY_MAX_AGE_MS = 24 * 3_600_000;

/** A new folder for one upload, named for this process. */
export function makeReceivingFolder(): Promise<string> {
  return mkdtemp(join(tmpdir(), `${PREFIX}${process.pid}-`));
}

/** Removes the receiving folders left by processes that are gone; answers the names removed. */
export async function removeStaleReceivingFolders(now = Date.now(), folder = tmpdir()): Promise<string[]> {
  const names = await readdir(folder).catch(() => [] as string[]);
  const removed: string[] = [];
  for (const name of names) {
    if (!name.startsWith(PREFIX)) continue;
    const owner = OWNED.exec(name);
    const stale = owner ? !isAlive(Number(owner[1])) : LEGACY.test(name) && (await olderThan(join(folder, name), now - LEGACY_MAX_AGE_MS));
    if (!stale) continue;
    // Another server starting at the same time may remove it first: that is no failure.
    await rm(join(folder, name), { recursive: true, force: true }).then(
      () => removed.push(name),
      () => undefined,
    );
  }
  return removed;
}

function isAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists and belongs to another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function olderThan(path: string, time: number): Promise<boolean> {
  const stats = await stat(path).catch(() => null);
  return stats !== null && stats.isDirectory() && stats.mtimeMs < time;
}
