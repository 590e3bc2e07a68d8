/**
 * Where uploaded files go. A provider stores an object's bytes under a key and says at which URL
 * it is served; the media library keeps that URL and the provider's name in the `files` row, as
 * Strapi's upload providers do. `local` (local-provider.ts) and `s3` (s3-provider.ts) are built
 * in; a host passes its own as `contentApi({ upload: { provider } })`.
 */
import type { Readable } from 'node:stream';

/** One stored object: a file or one of its formats. */
export interface StoredObject {
  /** `<hash><ext>`: `photo_3f2a9c01b4.jpg`, `thumbnail_photo_3f2a9c01b4.jpg`. Letters, digits, `_`, `-` and `.` only. */
  readonly key: string;
  readonly mime: string;
}

/** Where the provider put an object. */
export interface StoredLocation {
  /** The object's URL as the `files` row keeps it (`/uploads/<key>` for `local`). */
  readonly url: string;
  /** Kept in `files.provider_metadata` (null for `local`). */
  readonly providerMetadata?: Readonly<Record<string, unknown>> | null;
}

export interface StorageProvider {
  /** The name the `files` row keeps in `provider` (`local`). */
  readonly name: string;
  /** Stores `content` under `object.key`, replacing an object of that key; the stream is read to its end or the promise rejects. */
  upload(object: StoredObject, content: Readable): Promise<StoredLocation>;
  /** Removes the object; one that is already gone is not an error. */
  delete(object: StoredObject): Promise<void>;
}

/**
 * An object stored where no reader looks for it, not yet under its key. `commit` puts it in place;
 * `discard` removes the staged copy, whether it was committed or not (after a rename, nothing is
 * left to remove; after a copy, the staged copy is). The media library discards every object it
 * staged once the request is done, and reports a failure to do so to the `logger`.
 */
export interface StagedObject {
  /** Where the object is once committed: what the `files` row keeps. */
  readonly location: StoredLocation;
  commit(): Promise<void>;
  discard(): Promise<void>;
}

/**
 * A provider that can stage an object. The media library stages the objects of a replacement
 * (which keep the old keys) and commits them only once the row is written, so a replacement that
 * fails partway leaves the old objects as they were. The `local` provider stages beside the
 * folder's objects and commits by a rename; the `s3` one stages under `<prefix>/.staging/` and
 * commits by a copy.
 */
export interface StagingProvider extends StorageProvider {
  /** Stages the file at `path` (the caller no longer needs it: it may be moved) as `object`. */
  stage(object: StoredObject, path: string): Promise<StagedObject>;
  /**
   * Whether new objects (keys that replace nothing) are staged too rather than stored with
   * `upload` (default false: a new key has nothing to protect, and a staged copy costs a request).
   * The `local` provider says true: its staging moves the received file in by a rename, cheaper
   * than `upload`'s copy of the bytes.
   */
  readonly stageNewObjects?: boolean;
}

export function isStagingProvider(provider: StorageProvider): provider is StagingProvider {
  return typeof (provider as Partial<StagingProvider>).stage === 'function';
}

/** A storage key the media library makes: what `StoredObject.key` promises. */
export const SAFE_KEY = /^[A-Za-z0-9_-][A-Za-z0-9_.-]*$/;
