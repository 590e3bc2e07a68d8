/**
 * Puts a prepared file's objects (the file, then each format) in the provider and builds what the
 * `files` row keeps of them: the URL, the provider's metadata and the `formats` JSON, each format
 * as Strapi writes it. A provider that fails is a 503, after the objects already stored for the
 * request are removed again.
 */
import { createReadStream } from 'node:fs';
import { ServiceUnavailableError } from '../errors.js';
import type { PreparedFile } from './prepare-file.js';
import { isStagingProvider, type StagedObject } from './local-provider.js';
import type { StorageProvider, StoredLocation, StoredObject } from './provider.js';

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

/**
 * The objects stored so far in a request, to remove them if the request fails after all. With a
 * provider that stages (local-provider.ts), objects wait beside their place until `commitStaged`:
 * a replacement puts its objects in place only once its row is written.
 */
export class StoredObjects {
  private readonly stored: StoredObject[] = [];
  private readonly staged: { object: StoredObject; staged: StagedObject }[] = [];

  constructor(readonly provider: StorageProvider) {}

  private async put(object: StoredObject, path: string): Promise<StoredLocation> {
    try {
      if (isStagingProvider(this.provider)) {
        const staged = await this.provider.stage(object, path);
        this.staged.push({ object, staged });
        return staged.location;
      }
      const location = await this.provider.upload(object, createReadStream(path));
      this.stored.push(object);
      return location;
    } catch (error) {
      throw Object.assign(new ServiceUnavailableError('Service Unavailable: the file storage did not take the file', 5), { cause: error });
    }
  }

  /** Puts the staged objects in place (a rename each); from then on they count as stored. */
  async commitStaged(): Promise<void> {
    for (const { object, staged } of this.staged.splice(0)) {
      this.stored.push(object);
      await staged.commit();
    }
  }

  /** Removes the staged objects, leaving whatever is in their place as it was. */
  async discardStaged(): Promise<void> {
    await Promise.allSettled(this.staged.splice(0).map(({ staged }) => staged.discard()));
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
    await Promise.allSettled(this.stored.splice(0).map((object) => this.provider.delete(object)));
  }
}
