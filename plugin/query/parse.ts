/**
 * A request's query object (as qs parsed it) → the query tree. Validation runs in Strapi's
 * order (filters, sort, fields, populate, then pagination) so the first error reported is the
 * one Strapi would report. Unknown top-level keys are ignored, as in Strapi.
 */
import { ValidationError } from '../errors.js';
import { checkRelationHops, DEFAULT_MAX_RELATION_HOPS } from './relation-hops.js';
import type { Model, Registry } from '../schema/registry.js';
import { parseFields } from './parse-fields.js';
import { parseFilters } from './parse-filters.js';
import { parsePagination, rejectTopLevelPagination } from './parse-pagination.js';
import { MAX_POPULATE_DEPTH, parsePopulate, populateDepth, tooDeep } from './parse-populate.js';
import { parseSort } from './parse-sort.js';
import type { LocaleFilter, Pagination, PublicationState, RootQuery } from './tree.js';

export interface QueryLimits {
  /** Page size when none is asked for (25). */
  readonly defaultLimit: number;
  /** Largest page size (100). */
  readonly maxLimit: number;
  /** Whether list responses count the total by default (true). */
  readonly withCount: boolean;
  /** Most relation, component or media hops in one filter or sort path (6). */
  readonly maxRelationHops?: number;
}

export interface ParseRequest {
  readonly model: Model;
  readonly action: 'find' | 'findOne';
  readonly id: number | null;
  readonly query: Record<string, unknown>;
}

export function parseQuery(registry: Registry, request: ParseRequest, limits: QueryLimits): RootQuery {
  const { model, action, query } = request;
  const list = action === 'find';
  rejectTopLevelPagination(query);
  const filters = list ? parseFilters(model, query.filters, 'filters', registry) : null;
  const sort = list ? parseSort(model, query.sort, 'sort', registry) : [];
  const fields = parseFields(model, query.fields, 'fields');
  const populate = parsePopulate(registry, model, query.populate, 'populate');
  if (populateDepth({ fields, populate }) > MAX_POPULATE_DEPTH) throw tooDeep('populate');
  const pagination: Pagination = list
    ? parsePagination(query.pagination, limits, 'pagination')
    : { mode: 'page', page: 1, pageSize: 1, withCount: false };
  const root: RootQuery = {
    kind: 'root',
    model,
    action,
    id: request.id,
    selection: { fields, populate },
    filters,
    sort,
    pagination,
    locale: list && model.localized ? parseLocale(query.locale, registry.i18n.defaultLocale) : null,
    publicationState: parsePublicationState(query.publicationState),
    search: list ? parseSearch(query._q) : null,
  };
  checkRelationHops(root, limits.maxRelationHops ?? DEFAULT_MAX_RELATION_HOPS);
  return root;
}

function parsePublicationState(raw: unknown): PublicationState {
  if (raw === undefined) return 'live';
  if (raw === 'live' || raw === 'preview') return raw;
  throw new ValidationError('publicationState', 'Invalid publicationState; expected live or preview');
}

/** Absent: the default locale; `all`: every locale; a code or a list of codes. Unknown codes match nothing. */
function parseLocale(raw: unknown, defaultLocale: string): LocaleFilter {
  if (raw === undefined || raw === null) return [defaultLocale];
  if (raw === 'all') return null;
  const codes = typeof raw === 'string' ? [raw] : raw;
  if (Array.isArray(codes) && codes.every((code) => typeof code === 'string' && !code.includes('\u0000'))) {
    return codes.includes('all') ? null : [...new Set(codes as string[])];
  }
  throw new ValidationError('locale', 'Invalid locale; expected a locale code, a list of codes or all');
}

function parseSearch(raw: unknown): string | null {
  if (raw === undefined || raw === null || raw === '') return null;
  // PostgreSQL refuses NUL in text parameters: caught here it is a 400, not a database error.
  if (typeof raw === 'string' && !raw.includes('\u0000')) return raw;
  throw new ValidationError('_q', 'Invalid _q; expected a search text without NUL characters');
}
