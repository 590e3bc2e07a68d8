/**
 * Watches what a schema is made of under its root: content-types/ and components/ (recursively)
 * and permissions.yaml. The root itself is watched without recursion, so a folder created later
 * and a permissions file written by rename are seen, without watching node_modules or the
 * database files beside them. Bursts of events (an editor's save) are folded into one call.
 */
import { existsSync, watch, type FSWatcher } from 'node:fs';
import { join } from 'node:path';

export const SCHEMA_FOLDERS = ['content-types', 'components'] as const;
const PERMISSIONS_FILE = 'permissions.yaml';

export interface SchemaWatcher {
  close(): void;
}

export function watchSchema(root: string, changed: () => void, debounceMs = 100): SchemaWatcher {
  let timer: NodeJS.Timeout | null = null;
  const touched = () => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      changed();
    }, debounceMs);
  };
  const folders = new Map<string, FSWatcher>();
  const watchFolder = (name: string) => {
    const path = join(root, name);
    if (folders.has(name) || !existsSync(path)) return;
    try {
      const watcher = watch(path, { recursive: true }, touched);
      watcher.on('error', () => {
        watcher.close();
        folders.delete(name);
      });
      folders.set(name, watcher);
    } catch {
      // Gone between the check and the watch: the root's watcher sees it come back.
    }
  };
  for (const name of SCHEMA_FOLDERS) watchFolder(name);
  const rootWatcher = watch(root, (_event, name) => {
    const changedName = name?.toString() ?? null;
    if (changedName === null || changedName === PERMISSIONS_FILE) return touched();
    if ((SCHEMA_FOLDERS as readonly string[]).includes(changedName)) {
      watchFolder(changedName);
      touched();
    }
  });
  rootWatcher.on('error', () => rootWatcher.close());
  return {
    close() {
      if (timer) clearTimeout(timer);
      rootWatcher.close();
      for (const watcher of folders.values()) watcher.close();
    },
  };
}
