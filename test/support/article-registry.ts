/**
 * The subject of the query parser unit tests: the example schema's registry and its article
 * model (every attribute kind), loaded once, when a suite first imports this module.
 */
import { parseFilters } from '../../plugin/query/parse-filters.js';
import type { Filter } from '../../plugin/query/tree.js';
import type { Model } from '../../plugin/schema/registry.js';
import { parseQueryString } from './query-string.js';
import { loadTestRegistry, testModel } from './test-registry.js';

export const registry = await loadTestRegistry();
export const article = testModel(registry, 'api::article.article');

/** The `filters` parameter of a query string as parseFilters reads it on `model`, reported under `path`. */
export function filterOf(query: string, model: Model = article, path = 'filters'): Filter | null {
  return parseFilters(model, parseQueryString(query).filters, path, registry);
}
