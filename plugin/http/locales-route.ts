/**
 * `GET <prefix>/i18n/locales`: the locales (storage/strapi-locales.ts) to a role granted `find` on
 * `locale` in permissions.yaml (Strapi's `plugin::i18n.locales.listLocales`); another role's
 * request is Strapi's 403. The query string is ignored, as Strapi ignores it.
 */
import type Router from '@koa/router';
import { grantsFor, LOCALE_UID } from '../access/permissions.js';
import { resolveCaller } from './caller.js';
import { ForbiddenError } from '../errors.js';
import { formatLocales } from '../format/locales.js';
import type { WriteEngine } from '../write/write.js';
import type { RouterOptions } from './router.js';

export function addLocalesRoute(router: Router, engine: WriteEngine, options: RouterOptions): void {
  router.get('/i18n/locales', async (ctx) => {
    const rules = engine.rules();
    const { role, identified } = await resolveCaller(ctx, rules.tokens, options.resolveRole, options.now());
    ctx.vary('Authorization');
    if (!grantsFor(rules.permissions, role).can(LOCALE_UID, 'find')) throw new ForbiddenError();
    const cacheControl = options.cacheControl?.(LOCALE_UID, identified);
    if (cacheControl) ctx.set('Cache-Control', cacheControl);
    ctx.body = formatLocales(await engine.localeEntries(), engine.registry.i18n.defaultLocale);
  });
}
