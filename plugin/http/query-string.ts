/**
 * The query string, parsed by the plugin itself with strict limits, whatever the host app did
 * with ctx.query: bracket notation, `strictNullHandling` (a key without `=` is null), depth 20,
 * 100 array items, 1000 parameters. Going over a limit is a 400, never a silent reshape.
 */
import qs from 'qs';
import { ValidationError } from '../errors.js';

const OPTIONS = {
  strictNullHandling: true,
  depth: 20,
  strictDepth: true,
  arrayLimit: 100,
  parameterLimit: 1000,
  throwOnLimitExceeded: true,
  allowPrototypes: false,
  allowDots: false,
  comma: false,
} as const;

export function parseQueryString(querystring: string): Record<string, unknown> {
  try {
    return qs.parse(querystring, OPTIONS) as Record<string, unknown>;
  } catch (error) {
    if (error instanceof RangeError) throw new ValidationError('', `Invalid query string: ${error.message}`);
    throw new ValidationError('', 'Invalid query string');
  }
}
