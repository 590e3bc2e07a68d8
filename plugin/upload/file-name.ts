/**
 * A file's name, extension and hash as Strapi's upload plugin makes them: the name as sent (or
 * fileInfo's), the extension of the sent file name (else the type's), and the hash
 * `<slug of the base name>_<10 random hex digits>`, which names the stored objects. Names with
 * characters no file system takes are refused, as Strapi refuses them; so is an extension that
 * could not name a stored object safely (Strapi keeps any).
 */
import { randomBytes } from 'node:crypto';
import { basename, extname } from 'node:path';
import { createRequire } from 'node:module';
import mime from 'mime-types';
import { ApplicationError } from '../errors.js';

// CommonJS, Strapi's own slugify (1.x): the same name gives the same hash base.
const slugify = createRequire(import.meta.url)('@sindresorhus/slugify') as (text: string, options: { separator: string; lowercase: boolean }) => string;

// eslint-disable-next-line no-control-regex
const RESERVED = /[<>:"/\\|?*\u0000-\u001F]/;
const WINDOWS_RESERVED = /^(con|prn|aux|nul|com\d|lpt\d)$/i;
const SAFE_EXTENSION = /^(\.[A-Za-z0-9_-]{1,32})?$/;

/** valid-filename's rule, as Strapi applies it. */
export function isValidFilename(name: string): boolean {
  if (!name || name.length > 255) return false;
  if (RESERVED.test(name) || WINDOWS_RESERVED.test(name)) return false;
  return name !== '.' && name !== '..';
}

export interface FileNaming {
  readonly name: string;
  readonly ext: string;
  readonly hash: string;
}

const invalidName = () => new ApplicationError('File name contains invalid characters');

/** The row's name, ext and a new hash for a file sent as `filename` of type `type`, named `infoName` by its fileInfo. */
export function nameFile(filename: string, type: string, infoName: string | null | undefined): FileNaming {
  if (!isValidFilename(filename)) throw invalidName();
  const typeExtension = mime.extension(type);
  const ext = extname(filename) || (typeExtension ? `.${typeExtension}` : '');
  if (!SAFE_EXTENSION.test(ext)) throw invalidName();
  const name = (infoName || filename).normalize();
  if (!isValidFilename(name)) throw invalidName();
  return { name, ext, hash: newHash(basename(name, ext)) };
}

/** `<slug>_<random>`, the hash of a new file. */
export function newHash(base: string): string {
  return `${slugify(base, { separator: '_', lowercase: false })}_${randomBytes(5).toString('hex')}`;
}
