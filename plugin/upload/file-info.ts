/**
 * The `fileInfo` part(s) of an upload: `{ name, alternativeText, caption }` per file, as one JSON
 * object (one file), one JSON array (several), or one JSON object per `fileInfo` part. Checked as
 * Strapi's yup schema checks them (not strictly: numbers become strings, unknown keys are
 * dropped), with its messages and `details.errors`, so a client sees the same 400s.
 */
import { ApiError } from '../errors.js';

export interface FileInfo {
  readonly name?: string | null;
  readonly alternativeText?: string | null;
  readonly caption?: string | null;
}

const KEYS = ['name', 'alternativeText', 'caption'] as const;

interface Problem {
  readonly path: string[];
  readonly message: string;
}

/** Strapi's ValidationError of a yup check: the first message, every problem in details. */
function yupError(problems: Problem[]): ApiError {
  const message = problems.length === 1 ? problems[0].message : `${problems.length} errors occurred`;
  return new ApiError('ValidationError', message, { errors: problems.map(({ path, message }) => ({ path, message, name: 'ValidationError' })) });
}

/** yup's printValue: strings quoted, objects as indented JSON of printed values. */
function printValue(value: unknown): string {
  const simple = (item: unknown): string | null => {
    if (item === null || item === undefined || typeof item === 'boolean' || typeof item === 'number') return String(item);
    if (typeof item === 'string') return `"${item}"`;
    return null;
  };
  return simple(value) ?? JSON.stringify(value, function (this: Record<string, unknown>, key) {
    const item = this[key];
    return simple(item) ?? item;
  }, 2);
}

function typeError(path: string, type: string, value: unknown, original: unknown): string {
  const cast = original !== value ? ` (cast from the value \`${printValue(original)}\`).` : '.';
  return `${path} must be a \`${type}\` type, but the final value was: \`${printValue(value)}\`${cast}`;
}

/** yup's object cast: a JSON string is parsed; what does not parse is null. */
function castObject(raw: unknown): unknown {
  if (typeof raw !== 'string') return raw;
  try {
    return JSON.parse(raw);
  } catch {
    return null;
  }
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function checkInfo(raw: unknown, path: string, pathParts: string[], problems: Problem[]): FileInfo | undefined {
  if (raw === undefined) return undefined;
  const value = castObject(raw);
  if (!isObject(value)) {
    problems.push({ path: pathParts, message: typeError(path, 'object', Array.isArray(value) ? null : value, raw) });
    return undefined;
  }
  const info: Record<string, string | null | undefined> = {};
  for (const key of KEYS) {
    const item = value[key];
    if (item === undefined || item === null || typeof item === 'string') info[key] = item;
    else if (typeof item === 'number' || typeof item === 'boolean') info[key] = String(item);
    else problems.push({ path: [...pathParts, key], message: typeError(`${path}.${key}`, 'string', item, item) });
  }
  return info;
}

/** The fileInfo of each file (undefined where none was sent), or the 400 Strapi answers. */
export function parseFileInfo(parts: readonly string[] | undefined, fileCount: number): (FileInfo | undefined)[] {
  const problems: Problem[] = [];
  let infos: (FileInfo | undefined)[];
  if (fileCount <= 1) {
    // One file: one object (a second part is ignored, as a single value would be).
    infos = [checkInfo(parts?.[0], 'fileInfo', ['fileInfo'], problems)];
  } else {
    const raw = parts === undefined ? undefined : parts.length === 1 ? castObject(parts[0]) : parts;
    if (raw === undefined || raw === null) infos = [];
    else if (!Array.isArray(raw)) {
      problems.push({ path: ['fileInfo'], message: typeError('fileInfo', 'array', raw, parts![0]) });
      infos = [];
    } else infos = raw.map((item, index) => checkInfo(item, `fileInfo[${index}]`, ['fileInfo', String(index)], problems));
  }
  if (problems.length) throw yupError(problems);
  return Array.from({ length: Math.max(fileCount, 1) }, (_, index) => infos[index]);
}
