/**
 * Calls `changed` after a file is written, however an editor writes it (in place, or a new file
 * renamed over the old one): the folder is watched, since a rename replaces the file being
 * watched. Bursts of events are folded into one call.
 */
import { watch, type FSWatcher } from 'node:fs';
import { basename, dirname } from 'node:path';

const SETTLE_MS = 50;

export interface FileWatcher {
  close(): void;
}

export function watchFile(file: string, changed: () => void): FileWatcher {
  const name = basename(file);
  let timer: NodeJS.Timeout | null = null;
  let watcher: FSWatcher | null = null;
  try {
    watcher = watch(dirname(file), { persistent: false }, (_event, changedName) => {
      if (changedName !== null && changedName.toString() !== name) return;
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => {
        timer = null;
        changed();
      }, SETTLE_MS);
    });
    // A folder that goes away stops the watch; reloads on demand still work.
    watcher.on('error', () => watcher?.close());
  } catch {
    // No such folder (no permissions file yet): nothing to watch.
  }
  return {
    close() {
      if (timer) clearTimeout(timer);
      watcher?.close();
    },
  };
}
