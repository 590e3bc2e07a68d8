/**
 * A mutation's `data` (`ArticleInput`, coerced by graphql-js) → the `data` of the REST door's write
 * body, with GraphQL's meaning where Strapi's plugin differs from its REST routes: a new entry of a
 * draft-and-publish type is a draft unless `publishedAt` is given (the plugin calls the entity
 * service, which publishes nothing by itself), and a dynamic zone's items name their component by
 * `__typename` (`ComponentSharedQuote`) where REST names it by `__component` (`shared.quote`).
 */
import { ValidationError } from '../errors.js';
import type { Model } from '../schema/registry.js';

export function mutationData(model: Model, raw: unknown, created: boolean, componentOfType: (typeName: string) => string | undefined): Record<string, unknown> {
  const data = isObject(raw) ? { ...raw } : {};
  if (created && model.draftAndPublish && data.publishedAt === undefined) data.publishedAt = null;
  for (const attribute of model.attributes.values()) {
    if (attribute.kind !== 'dynamiczone' || !Array.isArray(data[attribute.name])) continue;
    data[attribute.name] = (data[attribute.name] as unknown[]).map((item, index) => zoneItem(item, `${attribute.name}.${index}`, componentOfType));
  }
  return data;
}

/** `createArticleLocalization(id, data, locale)`: the REST route's bare body, the locale in it. */
export function localizationData(model: Model, args: Record<string, unknown>, componentOfType: (typeName: string) => string | undefined): Record<string, unknown> {
  const data = mutationData(model, args.data, false, componentOfType);
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
