/**
 * Puts a prepared file's objects (the file, then each format) in the provider and builds what the
 * `files` row keeps of them: the URL, the provider's metadata and the `formats` JSON, each format
 * as Strapi writes it. A provider that fails is a 503, after the objects already stored for the
 * request are removed again; the provider's error goes to the `logger`, as the answer does not
 * say it (it may name the store's address or bucket).
 */
import { createReadStream } from 'node:fs';
import { ServiceUnavailableError } from '../errors.js';
import type { PreparedFile } from './prepare-file.js';
import { isStagingProvider, type StagedObject, type StorageProvider, type StoredLocation, type StoredObject } from './provider.js';

/** A format in `files.formats`, keys in Strapi's order. */
export interface FormatEntry {
  readonly name: string;
  readonly hash: string;
  readonly ext: string;
  readonly mime: string;
  readonly path: null;
  readonly width: number;
  readonly height: number;
  readonly size: number;
  readonly sizeInBytes: number;
  readonly url: string;
}

export interface StoredFile {
  readonly url: string;
  readonly providerMetadata: Readonly<Record<string, unknown>> | null;
  /** Null when the file has no formats. */
  readonly formats: Readonly<Record<string, FormatEntry>> | null;
  /** Every object stored for the file. */
  readonly objects: readonly StoredObject[];
}

/** Strapi's size in KB: two decimals. */
export function kilobytes(bytes: number): number {
  return Math.round((bytes / 1000) * 100) / 100;
}

/** Where the media library sends a storage failure the answer does not carry: the plugin's `logger`. */
export type StorageReport = (error: unknown, message: string) => void;

export interface StoredObjectsOptions {
  /** The objects replace others of the same keys (`POST /upload?id=N`): a staging provider stages them. */
  readonly replacing: boolean;
  readonly report: StorageReport;
}

/**
 * The objects stored so far in a request, to remove them if the request fails after all. With a
 * staging provider (provider.ts), a replacement's objects wait out of sight until
 * `commitStaged`, which the media library calls once the row is written: a replacement that fails
 * before leaves the old objects as they were.
 */
export class StoredObjects {
  private readonly stored: StoredObject[] = [];
  private readonly staged: { object: StoredObject; staged: StagedObject }[] = [];

  constructor(
    readonly provider: StorageProvider,
    private readonly options: StoredObjectsOptions,
  ) {}

  private async put(object: StoredObject, path: string): Promise<StoredLocation> {
    try {
      const provider = this.provider;
      if (isStagingProvider(provider) && (this.options.replacing || provider.stageNewObjects === true)) {
        const staged = await provider.stage(object, path);
        this.staged.push({ object, staged });
        return staged.location;
      }
      const location = await provider.upload(object, createReadStream(path));
      this.stored.push(object);
      return location;
    } catch (error) {
      throw this.unavailable(error, `the file storage did not take the object ${object.key}`);
    }
  }

  /** The 503 a storage failure answers, its cause logged. */
  private unavailable(error: unknown, message: string): ServiceUnavailableError {
    this.options.report(error, `${message}: answered 503`);
    return Object.assign(new ServiceUnavailableError('Service Unavailable: the file storage did not take the file', 5), { cause: error });
  }

  /**
   * Puts the staged objects in place; from then on they count as stored. A failure is a 503 and
   * stops there: the objects not yet committed stay staged, for `discardStaged` (or `removeAll`) to remove.
   */
  async commitStaged(): Promise<void> {
    const committed: StagedObject[] = [];
    try {
      while (this.staged.length) {
        const { object, staged } = this.staged[0];
        await staged.commit();
        this.staged.shift();
        this.stored.push(object);
        committed.push(staged);
      }
    } catch (error) {
      throw this.unavailable(error, `the file storage did not put the staged object ${this.staged[0]?.object.key} in place`);
    } finally {
      // What a commit leaves of a staged copy (the s3 provider's: a copy, not a rename).
      await this.discard(committed);
    }
  }

  /** Removes the staged objects, leaving whatever is in their place as it was. */
  async discardStaged(): Promise<void> {
    await this.discard(this.staged.splice(0).map(({ staged }) => staged));
  }

  /** Best effort: a staged copy not removed does not fail the request, it is reported. */
  private async discard(staged: readonly StagedObject[]): Promise<void> {
    const results = await Promise.allSettled(staged.map((object) => object.discard()));
    for (const result of results) if (result.status === 'rejected') this.options.report(result.reason, 'a staged object was not removed from the file storage');
  }

  async putFile(file: PreparedFile): Promise<StoredFile> {
    const object = { key: `${file.hash}${file.ext}`, mime: file.mime };
    const location = await this.put(object, file.path);
    const objects: StoredObject[] = [object];
    const formats: Record<string, FormatEntry> = {};
    for (const [name, output] of file.formats) {
      const formatObject = { key: `${output.key}${file.ext}`, mime: file.mime };
      const { url } = await this.put(formatObject, output.path);
      objects.push(formatObject);
      formats[name] = {
        name: `${name}_${file.name}`,
        hash: output.key,
        ext: file.ext,
        mime: file.mime,
        path: null,
        width: output.width,
        height: output.height,
        size: kilobytes(output.bytes),
        sizeInBytes: output.bytes,
        url,
      };
    }
    return { url: location.url, providerMetadata: location.providerMetadata ?? null, formats: file.formats.size ? formats : null, objects };
  }

  /** Removes every object stored or staged so far (a failed request leaves none behind). */
  async removeAll(): Promise<void> {
    await this.discardStaged();
    const objects = this.stored.splice(0);
    const results = await Promise.allSettled(objects.map((object) => this.provider.delete(object)));
    // The store down: the objects stay, named by no row; the logger says which.
    for (const [index, result] of results.entries()) if (result.status === 'rejected') this.options.report(result.reason, `an object stored for a failed request was not removed from the file storage: ${objects[index].key}`);
  }
}
