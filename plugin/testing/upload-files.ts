/**
 * Files a test data file uploads: a media attribute may name a local file instead of a `file`
 * entry — `cover: { file: ./images/a.jpg }`, or `{ file: …, alternativeText: …, caption: …, name: … }`,
 * alone or in a list beside entry names. An entry name is a string, so the map cannot be taken for
 * one. The path is relative to the data file. Each file goes through the media library's upload
 * (`api.media.upload`: the size limit, the type from the content, the image formats) before the
 * entries are written, and the entry's media then holds the uploaded file.
 */
import { accessSync, constants, createReadStream, statSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import mime from 'mime-types';
import type { MediaApi } from '../upload/host-upload.js';
import type { TestData, Values } from './data-file.js';

/** A local file to upload, as checked: its absolute path and the information given with it. */
export class FileToUpload {
  constructor(
    readonly path: string,
    readonly info: { readonly name?: string; readonly alternativeText?: string; readonly caption?: string },
  ) {}
}

const INFO_KEYS = ['name', 'alternativeText', 'caption'] as const;

/** `{ file: … }` as written in the data file (before it is checked). */
export function isFileToUpload(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && 'file' in value;
}

/** Checks one `{ file }` value; reports each problem and answers the file to upload. */
export function checkFileToUpload(value: unknown, folder: string, report: (message: string) => void): FileToUpload {
  const given = (isFileToUpload(value) ? value : {}) as Record<string, unknown>;
  const unknown = Object.keys(given).filter((key) => key !== 'file' && !(INFO_KEYS as readonly string[]).includes(key));
  if (!isFileToUpload(value)) report('expected the name of a file entry, or { file: <path of a local file> }');
  else if (unknown.length) report(`a file to upload takes file, ${INFO_KEYS.join(', ')}; not ${unknown.join(', ')}`);
  const info: Record<string, string> = {};
  for (const key of INFO_KEYS) {
    if (given[key] === undefined) continue;
    if (typeof given[key] !== 'string') report(`${key} must be a string`);
    else info[key] = given[key] as string;
  }
  const path = typeof given.file === 'string' && given.file !== '' ? resolve(folder, given.file) : '';
  if (isFileToUpload(value) && !path) report('file must be the path of a local file, relative to the data file');
  else if (path && !readableFile(path)) report(`no readable file at ${path}`);
  return new FileToUpload(path, info);
}

function readableFile(path: string): boolean {
  try {
    accessSync(path, constants.R_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** Every file to upload in the data, in file order (components and zones included). */
export function filesToUpload(data: TestData): FileToUpload[] {
  const found: FileToUpload[] = [];
  const visit = (value: unknown): void => {
    if (value instanceof FileToUpload) found.push(value);
    else if (Array.isArray(value)) value.forEach(visit);
    else if (typeof value === 'object' && value !== null && !(value instanceof Date)) Object.values(value as Values).forEach(visit);
  };
  for (const entry of data.entries) visit(entry.values);
  return found;
}

/** An uploaded file: its id, and its type as sniffed (for the attribute's allowedTypes). */
export interface UploadedFile {
  readonly id: number;
  readonly mime: string;
}

export type UploadedFiles = ReadonlyMap<FileToUpload, UploadedFile>;

/** Uploads each file through the media library, into `uploaded` (which holds what was uploaded when one fails). */
export async function uploadDataFiles(media: MediaApi, data: TestData, uploaded = new Map<FileToUpload, UploadedFile>()): Promise<UploadedFiles> {
  for (const file of filesToUpload(data)) {
    // The type a browser would declare, from the extension; the content decides where it can.
    const answer = await media.upload(createReadStream(file.path), { filename: basename(file.path), mimeType: mime.lookup(file.path) || undefined, ...file.info });
    uploaded.set(file, { id: answer.id as number, mime: answer.mime as string });
  }
  return uploaded;
}
