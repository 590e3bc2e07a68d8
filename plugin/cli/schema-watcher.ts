/**
 * Watches what a schema is made of under its root: content-types/ and components/ (every folder
 * below them) and permissions.yaml. Folders are watched, never files: an editor that saves by
 * writing a temp file and renaming it over the original (`sed -i`, vim, many IDEs), or a delete
 * then a create, replaces the file, and a watch on the old file would never fire again. Node's
 * recursive watch on Linux watches each file, so it is not used. The root itself is watched
 * without recursion, so a folder created later and a permissions file written by rename are
 * seen, without watching node_modules or the database files beside them. Bursts of events (an
 * editor's save) are folded into one call.
 */
import { readdirSync, statSync, watch, type FSWatcher } from 'node:fs';
import { join, sep } from 'node:path';

export const SCHEMA_FOLDERS = ['content-types', 'components'] as const;
const PERMISSIONS_FILE = 'permissions.yaml';

export interface SchemaWatcher {
  close(): void;
}

/** The folders at and below `path`; none when `path` is not a folder. */
function foldersUnder(path: string, found = new Set<string>()): Set<string> {
  try {
    if (!statSync(path).isDirectory()) return found;
    found.add(path);
    for (const entry of readdirSync(path, { withFileTypes: true })) {
      if (entry.isDirectory()) foldersUnder(join(path, entry.name), found);
    }
  } catch {
    // Gone while walking: the watch of its parent reports it.
  }
  return found;
}

export function watchSchema(root: string, changed: () => void, debounceMs = 100): SchemaWatcher {
  let timer: NodeJS.Timeout | null = null;
  let closed = false;
  const folders = new Map<string, FSWatcher>();
  /** After an event in `folder` naming `name`; a folder of that name is watched anew. */
  const touched = (folder: string, name: string | Buffer | null) => {
    if (closed) return;
    // A folder removed and made again (its inode may even be reused) keeps its path but not its
    // watch: whatever the event naming it was, its watches and those below it start over.
    if (name !== null) unwatchBelow(join(folder, name.toString()));
    // Folders made, removed or replaced since the last event are watched (or dropped) at once,
    // so a file written into a new folder right after is not missed.
    rearm();
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      changed();
    }, debounceMs);
  };
  const unwatch = (path: string) => {
    folders.get(path)?.close();
    folders.delete(path);
  };
  const unwatchBelow = (path: string) => {
    for (const watched of [...folders.keys()]) {
      if (watched === path || watched.startsWith(path + sep)) unwatch(watched);
    }
  };
  const rearm = () => {
    const present = new Set<string>();
    for (const name of SCHEMA_FOLDERS) foldersUnder(join(root, name), present);
    for (const path of [...folders.keys()]) {
      if (!present.has(path)) unwatch(path);
    }
    for (const path of present) {
      if (folders.has(path)) continue;
      try {
        const watcher = watch(path, (_event, name) => touched(path, name));
        watcher.on('error', () => {
          if (folders.get(path) === watcher) unwatch(path);
          else watcher.close();
        });
        folders.set(path, watcher);
      } catch {
        // Gone between the walk and the watch: its parent's watch reports it.
      }
    }
  };
  rearm();
  const rootWatcher = watch(root, (_event, name) => {
    const changedName = name?.toString() ?? null;
    if (changedName === null || changedName === PERMISSIONS_FILE || (SCHEMA_FOLDERS as readonly string[]).includes(changedName)) touched(root, changedName);
  });
  rootWatcher.on('error', () => rootWatcher.close());
  return {
    close() {
      closed = true;
      if (timer) clearTimeout(timer);
      rootWatcher.close();
      for (const path of [...folders.keys()]) unwatch(path);
    },
  };
}
