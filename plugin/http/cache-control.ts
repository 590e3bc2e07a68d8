/**
 * `Cache-Control` of the content routes' answers, per content type. What a role may read differs
 * between roles, so an answer for a caller identified by an API token or by the host
 * (`ctx.state.user`, `resolveRole`) is `private`: a shared cache never hands it to someone else.
 * Anonymous answers carry the configured value as it is (default `no-cache`: caches revalidate
 * with the ETag each time). Every answer varies by `Authorization`.
 */
import type { Registry } from '../schema/registry.js';

/** `default` for every type, and a value per content type uid (`api::article.article`). */
export type CacheControlOption = false | { readonly default?: string; readonly [uid: string]: string | undefined };

export const DEFAULT_CACHE_CONTROL = 'no-cache';

/** The header for an answer about `uid`; null when the option is off. */
export type CacheControlPolicy = (uid: string, personal: boolean) => string | null;

export function cacheControlPolicy(option: CacheControlOption | undefined, registry: Registry): CacheControlPolicy {
  if (option === false) return () => null;
  const values = new Map<string, string>();
  const uids = new Set(registry.contentTypes.map((model) => model.uid));
  for (const [key, value] of Object.entries(option ?? {})) {
    if (value === undefined) continue;
    if (key !== 'default' && !uids.has(key)) {
      throw new TypeError(`cacheControl: "${key}" is not a content type uid of the schema (expected "default" or a uid such as api::article.article)`);
    }
    values.set(key, value);
  }
  const fallback = values.get('default') ?? DEFAULT_CACHE_CONTROL;
  const personalValues = new Map<string, string>();
  return (uid, personal) => {
    const value = values.get(uid) ?? fallback;
    if (!personal) return value;
    let privateValue = personalValues.get(value);
    if (privateValue === undefined) personalValues.set(value, (privateValue = asPrivate(value)));
    return privateValue;
  };
}

/** `public, max-age=60, s-maxage=600` → `private, max-age=60`: directives for shared caches go. */
export function asPrivate(value: string): string {
  const directives = value
    .split(',')
    .map((directive) => directive.trim())
    .filter((directive) => directive && !/^(public|private|s-maxage\s*=.*|proxy-revalidate)$/i.test(directive));
  return ['private', ...directives].join(', ');
}
