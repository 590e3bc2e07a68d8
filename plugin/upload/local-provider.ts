/**
 * The `local` provider: objects are files in one folder (default `public/uploads`), served by
 * `api.routes()` at `/uploads/<key>` (serve-local.ts). An object is written under a temporary name
 * and renamed into place, so a reader never sees half a file and a failed upload leaves nothing.
 */
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { SAFE_KEY, type StorageProvider, type StoredObject } from './provider.js';

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

export function createLocalProvider(options: LocalProviderOptions): StorageProvider {
  const { folder } = options;
  const urlPrefix = options.urlPrefix ?? '/uploads';
  return {
    name: 'local',
    async upload(object: StoredObject, content: Readable) {
      const target = localPath(folder, object.key);
      await mkdir(folder, { recursive: true });
      // A dot-name: never served (serve-local.ts refuses keys starting with a dot).
      const partial = join(folder, `.${object.key}.${randomBytes(6).toString('hex')}.part`);
      try {
        await pipeline(content, createWriteStream(partial, { flags: 'wx' }));
        await rename(partial, target);
      } catch (error) {
        await rm(partial, { force: true });
        throw error;
      }
      return { url: `${urlPrefix}/${object.key}`, providerMetadata: null };
    },
    async delete(object: StoredObject) {
      await rm(localPath(folder, object.key), { force: true });
    },
  };
}
