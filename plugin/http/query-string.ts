/**
 * The query string, parsed by the plugin itself with strict limits, whatever the host app did
 * with ctx.query: bracket notation, `strictNullHandling` (a key without `=` is null), depth 20,
 * 100 array items, 1000 parameters. Going over a limit is a 400 naming the parameter, never a
 * silent reshape.
 */
import qs from 'qs';
import { ValidationError } from '../errors.js';
import { childPath } from '../query/path.js';

export const QUERY_LIMITS = { depth: 20, arrayItems: 100, parameters: 1000 } as const;

const OPTIONS = {
  strictNullHandling: true,
  depth: QUERY_LIMITS.depth,
  strictDepth: true,
  arrayLimit: QUERY_LIMITS.arrayItems,
  parameterLimit: QUERY_LIMITS.parameters,
  throwOnLimitExceeded: true,
  allowPrototypes: false,
  allowDots: false,
  comma: false,
} as const;

export function parseQueryString(querystring: string): Record<string, unknown> {
  try {
    return qs.parse(querystring, OPTIONS) as Record<string, unknown>;
  } catch (error) {
    const message = error instanceof Error ? error.message : 'Invalid query string';
    throw new ValidationError(offendingPath(querystring, message), `Invalid query string: ${message}`);
  }
}

/** The parameter that broke a limit, as a parameter path (`filters.id.$in`), or '' when none is found. */
function offendingPath(querystring: string, message: string): string {
  const keys = querystring
    .split('&')
    .filter(Boolean)
    .map((pair) => decodeKey(pair.split('=')[0]));
  if (/parameter limit/i.test(message)) return keys[QUERY_LIMITS.parameters] === undefined ? '' : keyPath(keys[QUERY_LIMITS.parameters]);
  if (/depth/i.test(message)) {
    const deep = keys.find((key) => segmentsOf(key).length > QUERY_LIMITS.depth + 1);
    return deep === undefined ? '' : keyPath(deep);
  }
  const indexed = keys.find((key) => segmentsOf(key).some((segment) => /^\d+$/.test(segment) && Number(segment) >= QUERY_LIMITS.arrayItems));
  if (indexed !== undefined) return keyPath(indexed);
  const counts = new Map<string, number>();
  for (const key of keys) {
    const base = keyPath(key);
    const count = (counts.get(base) ?? 0) + 1;
    if (count > QUERY_LIMITS.arrayItems) return base;
    counts.set(base, count);
  }
  return '';
}

function decodeKey(key: string): string {
  try {
    return decodeURIComponent(key.replace(/\+/g, ' '));
  } catch {
    return key;
  }
}

/** `filters[id][$in][]` → ['filters', 'id', '$in', ''] */
function segmentsOf(key: string): string[] {
  const head = /^[^[]*/.exec(key)?.[0] ?? '';
  const brackets = [...key.slice(head.length).matchAll(/\[([^\]]*)\]/g)].map((match) => match[1]);
  return [head, ...brackets];
}

/** `filters[$or][0][title]` → `filters.$or[0].title`; `[]` adds nothing. */
function keyPath(key: string): string {
  return segmentsOf(key)
    .filter((segment) => segment !== '')
    .reduce((path: string, segment) => childPath(path, /^\d+$/.test(segment) ? Number(segment) : segment), '');
}
