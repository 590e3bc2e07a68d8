/**
 * A mutation's `data` (`ArticleInput`, coerced by graphql-js: a zone's items already read as
 * `{ __component, … }` by its input scalar, schema/unions.ts) → the `data` of the REST door's write
 * body. That a create is a draft unless it gives `publishedAt` is the write request's
 * `publishes: false`.
 */

export function mutationData(raw: unknown): Record<string, unknown> {
  return isObject(raw) ? { ...raw } : {};
}

/** `createArticleLocalization(id, data, locale)`: the REST route's bare body, the locale in it. */
export function localizationData(args: Record<string, unknown>): Record<string, unknown> {
  const data = mutationData(args.data);
  return typeof args.locale === 'string' ? { ...data, locale: args.locale } : data;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
