/**
 * A GraphQL `filters` argument (`ArticleFiltersInput`, already coerced by graphql-js) → the REST
 * door's filters object, which the shared parser then reads: operators and `and`/`or`/`not` take
 * their `$`, attributes keep their names, and relations and components are followed to their
 * target's input. This is how Strapi's plugin maps them (graphQLFiltersToStrapiQuery).
 */
import type { Model, Registry } from '../schema/registry.js';

const LOGICAL = new Set(['and', 'or', 'not']);

export function restFilters(registry: Registry, model: Model, filters: unknown): unknown {
  if (!isObject(filters)) return filters;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(filters)) {
    if (LOGICAL.has(key)) {
      out[`$${key}`] = Array.isArray(value) ? value.map((item) => restFilters(registry, model, item)) : restFilters(registry, model, value);
      continue;
    }
    const attribute = model.attributes.get(key);
    const target =
      attribute?.kind === 'relation' || attribute?.kind === 'media'
        ? registry.models.get(attribute.kind === 'media' ? registry.file.uid : attribute.target)
        : attribute?.kind === 'component'
          ? registry.models.get(attribute.component)
          : undefined;
    out[key] = target ? restFilters(registry, target, value) : operators(value);
  }
  return out;
}

/** A scalar's filter input (`StringFilterInput`): every key is an operator, `and`/`or`/`not` nest the same input. */
function operators(value: unknown): unknown {
  if (!isObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, operand] of Object.entries(value)) {
    out[`$${key}`] = LOGICAL.has(key) ? (Array.isArray(operand) ? operand.map(operators) : operators(operand)) : operand;
  }
  return out;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
