/**
 * A host app in front of the API whose own login names the end user by the `x-member` header
 * (`ctx.state.user`, as an app's login sets it), for the suites of row rules.
 */
import Koa from 'koa';
import type { ContentApi } from '../../plugin/index.js';

export function appWithMembers(api: ContentApi, members: Readonly<Record<string, Record<string, unknown>>>): Koa {
  const app = new Koa();
  app.silent = true;
  app.use((ctx, next) => {
    ctx.state.user = members[ctx.get('x-member')];
    return next();
  });
  app.use(api.routes());
  app.use(api.allowedMethods());
  return app;
}
