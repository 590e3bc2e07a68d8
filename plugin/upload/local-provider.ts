/**
 * The `local` provider: objects are files in one folder (default `public/uploads`), served by
 * `api.routes()` at `/uploads/<key>` (serve-local.ts). An object is first staged under a temporary
 * name and renamed into place, so a reader never sees half a file and a failed upload leaves
 * nothing. A file the media library already has on disk is moved into the folder by a rename when
 * both are on one file system (no second copy of its bytes), copied across devices (EXDEV).
 */
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { copyFile, mkdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { SAFE_KEY, type StagedObject, type StagingProvider, type StoredLocation, type StoredObject } from './provider.js';

export interface LocalProviderOptions {
  /** The folder holding the objects; created at the first upload. */
  readonly folder: string;
  /** The URL path the folder is served at (default `/uploads`). */
  readonly urlPrefix?: string;
}

/** The path of an object in `folder`; a key that could leave the folder is refused. */
export function localPath(folder: string, key: string): string {
  if (!SAFE_KEY.test(key)) throw new Error(`unsafe storage key ${JSON.stringify(key)}`);
  return join(folder, key);
}

/** Moves `from` to `to`: a rename on one file system, a copy across devices. */
async function moveFile(from: string, to: string): Promise<void> {
  try {
    await rename(from, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
    await copyFile(from, to);
  }
}

export function createLocalProvider(options: LocalProviderOptions): StagingProvider {
  const { folder } = options;
  const urlPrefix = options.urlPrefix ?? '/uploads';
  const location = (object: StoredObject): StoredLocation => ({ url: `${urlPrefix}/${object.key}`, providerMetadata: null });
  // A dot-name: never served (serve-local.ts refuses keys starting with a dot).
  const partialPath = (object: StoredObject) => join(folder, `.${object.key}.${randomBytes(6).toString('hex')}.part`);
  const staged = (object: StoredObject, partial: string): StagedObject => ({
    location: location(object),
    commit: () => rename(partial, localPath(folder, object.key)),
    // After the commit's rename there is no partial file left: nothing to do.
    discard: () => rm(partial, { force: true }),
  });
  return {
    name: 'local',
    stageNewObjects: true,
    async upload(object: StoredObject, content: Readable) {
      const target = localPath(folder, object.key);
      await mkdir(folder, { recursive: true });
      const partial = partialPath(object);
      try {
        await pipeline(content, createWriteStream(partial, { flags: 'wx' }));
        await rename(partial, target);
      } catch (error) {
        await rm(partial, { force: true });
        throw error;
      }
      return location(object);
    },
    async stage(object: StoredObject, path: string) {
      localPath(folder, object.key);
      await mkdir(folder, { recursive: true });
      const partial = partialPath(object);
      try {
        await moveFile(path, partial);
      } catch (error) {
        await rm(partial, { force: true });
        throw error;
      }
      return staged(object, partial);
    },
    async delete(object: StoredObject) {
      await rm(localPath(folder, object.key), { force: true });
    },
  };
}
