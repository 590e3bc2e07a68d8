/**
 * The scalar options of a populate object: on/off flags and the per-parent window.
 */
import { ValidationError } from '../errors.js';
import { childPath } from './path.js';
import type { PopulateWindow } from './tree.js';

const TRUE = new Set(['true', 't', '1', '*']);
const FALSE = new Set(['false', 'f', '0', '']);

/**
 * `populate[a]=true|t|1|*` populates, `false|f|0|''` does not; the same words for `count`.
 * Anything else is a 400 rather than Strapi's "any other string means true".
 */
export function parsePopulateFlag(value: unknown, path: string): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string') {
    const word = value.trim().toLowerCase();
    if (TRUE.has(word)) return true;
    if (FALSE.has(word)) return false;
  }
  throw new ValidationError(path, 'Invalid populate value; expected true, false, 1, 0, * or an object of options');
}

/**
 * `populate[a][limit]` and `[start]`, applied per parent entry (D3). limit -1 means no limit;
 * other values below 1 become 1 and a negative start becomes 0, as the root's pagination does.
 */
export function parsePopulateWindow(options: Record<string, unknown> | null, path: string): PopulateWindow | null {
  if (!options || (options.limit === undefined && options.start === undefined)) return null;
  const start = options.start === undefined ? 0 : Math.max(0, parseInteger(options.start, childPath(path, 'start')));
  if (options.limit === undefined) return { start, limit: null };
  const limit = parseInteger(options.limit, childPath(path, 'limit'));
  return { start, limit: limit === -1 ? null : Math.max(1, limit) };
}

function parseInteger(value: unknown, path: string): number {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return value;
  if (typeof value === 'string' && /^-?\d{1,15}$/.test(value.trim())) return Number(value.trim());
  throw new ValidationError(path, 'Invalid value; expected an integer');
}
