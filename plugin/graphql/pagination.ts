/**
 * A `pagination` argument as Strapi's plugin reads it (withDefaultPagination of @strapi/utils), for
 * a root list and a nested one alike: page and pageSize become start and limit (a page without a
 * pageSize is one entry long, as there), nothing asked is the default limit, a limit of -1 is no
 * limit, start is at least 0 and a limit at least 1, and mixing the two forms is its
 * PaginationError. A null value counts as not given.
 */
import { ApiError } from '../errors.js';

export interface GraphqlWindow {
  readonly start: number;
  /** null: no limit (`limit: -1`). */
  readonly limit: number | null;
}

export class PaginationError extends ApiError {
  constructor() {
    super('PaginationError', 'Cannot use both page & offset pagination in the same query');
  }
}

export function graphqlWindow(raw: unknown, defaultLimit: number, maxLimit: number): GraphqlWindow {
  const args = (raw && typeof raw === 'object' ? raw : {}) as Record<string, number | null | undefined>;
  const given = (key: string) => args[key] !== undefined && args[key] !== null;
  const paged = given('page') || given('pageSize');
  const offset = given('start') || given('limit');
  if (paged && offset) throw new PaginationError();
  let start = 0;
  let limit = defaultLimit;
  if (offset) {
    start = args.start ?? 0;
    limit = args.limit ?? defaultLimit;
  } else if (paged) {
    const pageSize = Math.max(1, args.pageSize ?? 0);
    start = ((args.page ?? 1) - 1) * pageSize;
    limit = pageSize;
  }
  if (limit === -1) return { start: Math.max(start, 0), limit: null };
  return { start: Math.max(start, 0), limit: Math.min(Math.max(limit, 1), maxLimit) };
}
