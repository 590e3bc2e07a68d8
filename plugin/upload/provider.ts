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

/** A storage key the media library makes: what `StoredObject.key` promises. */
export const SAFE_KEY = /^[A-Za-z0-9_-][A-Za-z0-9_.-]*$/;
