/**
 * A mutation's `data` (`ArticleInput`, coerced by graphql-js) → the `data` of the REST door's write
 * body: a dynamic zone's items name their component by `__typename` (`ComponentSharedQuote`) where
 * REST names it by `__component` (`shared.quote`). (That a create is a draft unless it gives
 * `publishedAt` is the write request's `publishes: false`.)
 */
import { ValidationError } from '../errors.js';
import type { Model } from '../schema/registry.js';

export function mutationData(model: Model, raw: unknown, componentOfType: (typeName: string) => string | undefined): Record<string, unknown> {
  const data = isObject(raw) ? { ...raw } : {};
  for (const attribute of model.attributes.values()) {
    if (attribute.kind !== 'dynamiczone' || !Array.isArray(data[attribute.name])) continue;
    data[attribute.name] = (data[attribute.name] as unknown[]).map((item, index) => zoneItem(item, `${attribute.name}.${index}`, componentOfType));
  }
  return data;
}

/** `createArticleLocalization(id, data, locale)`: the REST route's bare body, the locale in it. */
export function localizationData(model: Model, args: Record<string, unknown>, componentOfType: (typeName: string) => string | undefined): Record<string, unknown> {
  const data = mutationData(model, args.data, componentOfType);
  return typeof args.locale === 'string' ? { ...data, locale: args.locale } : data;
}

function zoneItem(item: unknown, path: string, componentOfType: (typeName: string) => string | undefined): unknown {
  if (!isObject(item) || item.__typename === undefined) return item;
  const { __typename: typeName, ...rest } = item;
  const uid = typeof typeName === 'string' ? componentOfType(typeName) : undefined;
  if (!uid) throw new ValidationError(`data.${path}.__typename`, `Invalid __typename ${JSON.stringify(typeName)}: expected the GraphQL type of one of the zone's components`);
  return { __component: uid, ...rest };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
