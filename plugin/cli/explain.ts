/**
 * `content-api explain '<path?query>' [--root DIR] [--dialect sqlite|postgres|mysql] [--role R]`:
 * prints the statements a request compiles to, with their parameters, without running them, and
 * for a list sorted or filtered on a column no index serves, the index to declare (index-hints.ts).
 */
import { join } from 'node:path';
import { CLOSED_API, loadPermissions, type Permissions } from '../access/permissions.js';
import type { Registry } from '../schema/registry.js';
import type { Dialect } from '../sql/dialect/dialect.js';
import type { ReadRequest } from '../read.js';
import { PUBLIC_ROLE } from '../access/caller.js';
import { planRestRead } from '../http/rest-read.js';
import { loadSchema } from '../schema/load.js';
import { explainedStatements, type Statement } from '../sql/compile.js';
import { DIALECTS } from '../sql/dialect/dialects.js';
import { describeLayout } from '../storage/layout.js';
import { indexHints } from './index-hints.js';
import { ApiError } from '../errors.js';
import { matchRoute } from '../http/route-match.js';
import { commandHelp, parseCommand, UsageError } from './common.js';

const OPTIONS = {
  root: { type: 'string', default: '.' },
  dialect: { type: 'string', default: 'sqlite' },
  role: { type: 'string', default: PUBLIC_ROLE },
  prefix: { type: 'string', default: '/api' },
} as const;

const USAGE = commandHelp("explain '/api/articles?populate=*' [--root DIR] [--dialect sqlite|postgres|mysql] [--role R] [--prefix /api]", OPTIONS, {
  root: ['DIR', 'the schema folder, with permissions.yaml (default .)'],
  dialect: ['sqlite|postgres|mysql', 'the SQL dialect to compile to (default sqlite)'],
  role: ['R', 'the role the request is planned for (default public)'],
  prefix: ['PATH', 'the API route prefix the path starts with (default /api)'],
});

export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseCommand(args, OPTIONS, USAGE, true);
  if (positionals.length !== 1 || !Object.hasOwn(DIALECTS, values.dialect)) throw new UsageError('expected one request and a known dialect', USAGE);
  const registry = await loadSchema(values.root);
  const permissions = (await loadPermissions(join(values.root, 'permissions.yaml'), 'permissions.yaml', registry)) ?? CLOSED_API;
  const url = new URL(positionals[0], 'http://localhost');
  const route = matchRoute(registry, values.prefix, url.pathname);
  if (!route) {
    process.stderr.write(`no route matches ${url.pathname}\n`);
    return 1;
  }
  return explainRequest({ registry, permissions, role: values.role, dialect: DIALECTS[values.dialect as keyof typeof DIALECTS] }, route, url.search.slice(1));
}

/**
 * Prints the statements of a request of `role`, its rules included (a variable of the caller
 * shows as `$user.id` among the parameters); an API error is printed, exit 1.
 */
export function explainRequest(
  plan: { registry: Registry; permissions: Permissions; role: string; dialect: Dialect },
  route: Pick<ReadRequest, 'model' | 'action' | 'id'>,
  querystring: string,
): number {
  try {
    const engine = { ...plan, limits: { defaultLimit: 25, maxLimit: 100, withCount: true } };
    const root = planRestRead(engine, { ...route, querystring, role: plan.role });
    for (const { label, ...statement } of explainedStatements(plan.dialect, root)) printStatement(label, statement);
    for (const hint of indexHints(root, describeLayout(plan.registry), plan.dialect.name)) process.stdout.write(`-- ${hint}\n`);
    return 0;
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    process.stderr.write(`${error.status} ${error.name}: ${error.message}\n`);
    return 1;
  }
}

function printStatement(label: string, statement: Statement): void {
  process.stdout.write(`-- ${label}\n${statement.sql};\n-- parameters: ${JSON.stringify(statement.values, (_key, value) => (typeof value === 'bigint' ? value.toString() : value))}\n`);
}
