/**
 * `pagination[page|pageSize]` (page mode) or `pagination[start|limit]` (offset mode), and
 * `pagination[withCount]`. Values are clamped as Strapi clamps them, with the configured
 * maxLimit; a value that is not an integer is a 400 where Strapi answers 500 (D1).
 */
import { ValidationError } from '../errors.js';
import { describeValue, parseBooleanText, parseIntegerText, quote, scalarText } from './cast-value.js';
import { childPath, isPlainObject } from './path.js';
import type { Pagination } from './tree.js';

/** The API's paging limits (`defaultLimit` 25, `maxLimit` 100, `withCount` true by default). */
export interface PaginationConfig {
  readonly defaultLimit: number;
  readonly maxLimit: number;
  readonly withCount: boolean;
}

const PAGE_KEYS = ['page', 'pageSize'] as const;
const OFFSET_KEYS = ['start', 'limit'] as const;
const KNOWN_KEYS = new Set<string>([...PAGE_KEYS, ...OFFSET_KEYS, 'withCount']);

/**
 * Parses the `pagination` object. Absent → page 1 of `defaultLimit` entries. A non-object, an
 * unknown key, mixed modes, a non-integer number or a bad `withCount` is a 400 at `path` or
 * `path.<key>`.
 */
export function parsePagination(raw: unknown, config: PaginationConfig, path: string): Pagination {
  const defaultLimit = Math.min(config.defaultLimit, config.maxLimit);
  if (raw === undefined || raw === null) {
    return Object.freeze({ mode: 'page', page: 1, pageSize: defaultLimit, withCount: config.withCount });
  }
  if (!isPlainObject(raw)) {
    throw new ValidationError(path, `Invalid pagination: expected pagination[page]/pagination[pageSize] or pagination[start]/pagination[limit], not ${describeValue(raw)}`);
  }
  for (const key of Object.keys(raw)) {
    if (!KNOWN_KEYS.has(key)) {
      throw new ValidationError(childPath(path, key), `Invalid pagination parameter ${quote(key)}: expected page, pageSize, start, limit or withCount`);
    }
  }
  const has = (key: string) => Object.hasOwn(raw, key) && raw[key] !== undefined;
  const pageMode = PAGE_KEYS.some(has);
  if (pageMode && OFFSET_KEYS.some(has)) {
    throw new ValidationError(path, 'Invalid pagination parameters. Expected either start/limit or page/pageSize');
  }
  const withCount = has('withCount') ? parseWithCount(raw.withCount, childPath(path, 'withCount')) : config.withCount;
  const read = (key: string) => (has(key) ? parseInteger(raw[key], childPath(path, key)) : undefined);
  if (!has('start') && !has('limit')) {
    const page = Math.max(1, read('page') ?? 1);
    const pageSize = clampSize(read('pageSize') ?? defaultLimit, config.maxLimit);
    return Object.freeze({ mode: 'page', page, pageSize, withCount });
  }
  const start = Math.max(0, read('start') ?? 0);
  const limit = read('limit') ?? defaultLimit;
  // -1 is Strapi's "no limit", which the configured maximum bounds.
  return Object.freeze({ mode: 'offset', start, limit: limit === -1 ? config.maxLimit : clampSize(limit, config.maxLimit), withCount });
}

/**
 * Rejects `page`, `pageSize`, `start` and `limit` written at the top level of the query, where
 * they are easily mistaken for pagination (Strapi answers a 400 PaginationError or ignores them).
 */
export function rejectTopLevelPagination(query: Record<string, unknown>): void {
  for (const key of [...PAGE_KEYS, ...OFFSET_KEYS]) {
    if (Object.hasOwn(query, key)) {
      throw new ValidationError(key, `Invalid parameter ${quote(key)}: pagination parameters go inside pagination, e.g. pagination[${key}]=${key === 'page' || key === 'start' ? 1 : 10}`);
    }
  }
}

function parseInteger(raw: unknown, path: string): number {
  const text = typeof raw === 'string' || typeof raw === 'number' ? scalarText(raw) : null;
  const value = text === null ? undefined : parseIntegerText(text);
  if (value === undefined) {
    throw new ValidationError(path, `Invalid pagination value ${describeValue(typeof raw === 'number' ? String(raw) : raw)}: expected an integer`);
  }
  return value;
}

/** 1 ≤ size ≤ maxLimit. */
function clampSize(size: number, maxLimit: number): number {
  return Math.min(Math.max(1, size), maxLimit);
}

function parseWithCount(raw: unknown, path: string): boolean {
  if (typeof raw === 'boolean') return raw;
  const value = typeof raw === 'string' || typeof raw === 'number' ? parseBooleanText(String(raw)) : undefined;
  if (value === undefined) throw new ValidationError(path, 'Invalid withCount parameter. Expected "t","1","true","false","0","f"');
  return value;
}
