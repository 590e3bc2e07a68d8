/**
 * The statements the server runs for a bench path, obtained the way the server obtains them
 * (planRestRead, then compileRequest, with the findOne id put in place by read.ts's boundStatement) and the
 * way `content-api explain` prints them: the public role, the default limits of contentApi().
 */
import { join } from 'node:path';
import { CLOSED_API, loadPermissions } from '../plugin/access/permissions.js';
import { PUBLIC_ROLE } from '../plugin/access/caller.js';
import { matchRoute } from '../plugin/http/route-match.js';
import { boundStatement } from '../plugin/read.js';
import { planRestRead } from '../plugin/http/rest-read.js';
import { anonymousCaller } from '../plugin/query/caller-variable.js';
import { loadSchema } from '../plugin/schema/load.js';
import { compileRequest, type Statement } from '../plugin/sql/compile.js';
import type { Dialect } from '../plugin/sql/dialect/dialect.js';
import type { RootQuery } from '../plugin/query/tree.js';

export interface FloorStatements {
  /** The one statement of the request: its row is the response body (compile-body.ts). */
  body: Statement;
  /** The authorized query tree it was compiled from (for the estimate of its cost). */
  root: RootQuery;
}

/** What contentApi() plans with when no option says otherwise (plugin/index.ts). */
const DEFAULT_LIMITS = { defaultLimit: 25, maxLimit: 100, withCount: true };

/** A function from a bench path (`/api/articles?…`) to its statements in `dialect`. */
export async function floorPlanner(root: string, dialect: Dialect, prefix = '/api'): Promise<(path: string) => FloorStatements> {
  const registry = await loadSchema(root);
  const permissions = (await loadPermissions(join(root, 'permissions.yaml'), 'permissions.yaml', registry)) ?? CLOSED_API;
  return (path) => {
    const url = new URL(path, 'http://localhost');
    const route = matchRoute(registry, prefix, url.pathname);
    if (!route) throw new Error(`no route matches ${url.pathname}`);
    const tree = planRestRead({ registry, permissions, limits: DEFAULT_LIMITS }, { ...route, querystring: url.search.slice(1), role: PUBLIC_ROLE });
    const compiled = compileRequest(dialect, tree);
    return { body: boundStatement(compiled.body, route.id, anonymousCaller(PUBLIC_ROLE)), root: tree };
  };
}
