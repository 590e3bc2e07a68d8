/**
 * The explorer, for development only (`explorer: true`, `serve --dev`): a page at
 * `<prefix>/_explorer` that builds queries by clicking, the schema summary it needs for the
 * caller's role, and the SQL a request compiles to. Everything runs with the caller's role: the
 * page shows nothing the API would not answer that role.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type Router from '@koa/router';
import type { Context } from 'koa';
import { grantsFor } from '../access/permissions.js';
import { resolveRole } from './caller.js';
import { matchRoute } from './route-match.js';
import { ApiError } from '../errors.js';
import { explorerSchema } from '../explorer/schema-summary.js';
import type { ReadEngine } from '../read.js';
import { planRestRead } from './rest-read.js';
import { findPackageRoot } from '../schema/schema-files.js';
import { explainedStatements } from '../sql/compile.js';
import type { RouterOptions } from './router.js';

/** The page is shipped beside the sources (tsc does not copy HTML to dist). */
function explorerPage(): string {
  return readFileSync(join(findPackageRoot(), 'plugin', 'explorer', 'explorer.html'), 'utf8');
}

export function addExplorerRoutes(router: Router, engine: ReadEngine, options: RouterOptions): void {
  const page = explorerPage();
  const caller = async (ctx: Context) => {
    const rules = engine.rules();
    return { rules, role: await resolveRole(ctx, rules.tokens, options.resolveRole, options.now()) };
  };
  router.get('/_explorer', (ctx) => {
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = page;
  });
  router.get('/_explorer/schema', async (ctx) => {
    const { rules, role } = await caller(ctx);
    ctx.body = explorerSchema(engine.registry, grantsFor(rules.permissions, role), options.upload !== undefined);
  });
  router.get('/_explorer/explain', async (ctx) => {
    const request = new URL(String(ctx.query.request ?? ''), 'http://localhost');
    const route = matchRoute(engine.registry, options.prefix, request.pathname);
    if (!route) {
      ctx.body = { error: `no route matches ${request.pathname}` };
      return;
    }
    try {
      const { rules, role } = await caller(ctx);
      const root = planRestRead({ ...engine, permissions: rules.permissions }, { ...route, querystring: request.search.slice(1), role });
      const statements = explainedStatements(engine.executor.dialect, root);
      ctx.type = 'application/json';
      ctx.body = JSON.stringify({ statements }, (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value));
    } catch (error) {
      if (!(error instanceof ApiError) || !error.expose) throw error;
      ctx.body = { error: `${error.status} ${error.name}: ${error.message}` };
    }
  });
}
