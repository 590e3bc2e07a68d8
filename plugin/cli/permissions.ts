/**
 * `content-api permissions --role R [--root DIR] [--explain '<path?query>'] [--dialect …]`:
 * what a role may do, per type — its actions, the rows each reaches, the values it forces and
 * the attributes it may read or write — and, with `--explain`, the statement a request of that
 * role runs, its rules included.
 */
import { join } from 'node:path';
import { CLOSED_API, loadPermissions, LOCALE_UID, type Action, type Permissions } from '../access/permissions.js';
import type { ActionRule } from '../access/action-rules.js';
import { CallerVariable } from '../query/caller-variable.js';
import { matchRoute } from '../http/route-match.js';
import { loadSchema } from '../schema/load.js';
import type { Registry } from '../schema/registry.js';
import { commandHelp, parseCommand, UsageError } from './common.js';
import { explainRequest } from './explain.js';
import { DIALECTS } from '../sql/dialect/dialects.js';

const OPTIONS = {
  role: { type: 'string' },
  root: { type: 'string', default: '.' },
  explain: { type: 'string' },
  dialect: { type: 'string', default: 'sqlite' },
  prefix: { type: 'string', default: '/api' },
} as const;

const USAGE = commandHelp("permissions --role R [--root DIR] [--explain '/api/articles?populate=*'] [--dialect sqlite|postgres|mysql]", OPTIONS, {
  role: ['R', 'the role to describe'],
  root: ['DIR', 'the schema folder, with permissions.yaml (default .)'],
  explain: ['REQUEST', 'print the statement this request of the role runs, rules included'],
  dialect: ['sqlite|postgres|mysql', 'the SQL dialect of --explain (default sqlite)'],
  prefix: ['PATH', 'the API route prefix the request starts with (default /api)'],
});

export async function run(args: string[]): Promise<number> {
  const { values } = parseCommand(args, OPTIONS, USAGE);
  if (!values.role || !Object.hasOwn(DIALECTS, values.dialect)) throw new UsageError('expected --role and a known dialect', USAGE);
  const registry = await loadSchema(values.root);
  const permissions = (await loadPermissions(join(values.root, 'permissions.yaml'), 'permissions.yaml', registry)) ?? CLOSED_API;
  if (!permissions.roles.has(values.role)) {
    process.stderr.write(`unknown role "${values.role}"; permissions.yaml has: ${[...permissions.roles.keys()].join(', ') || 'no roles'}\n`);
    return 1;
  }
  if (values.explain === undefined) {
    process.stdout.write(describeRole(registry, permissions, values.role));
    return 0;
  }
  const url = new URL(values.explain, 'http://localhost');
  const route = matchRoute(registry, values.prefix, url.pathname);
  if (!route) {
    process.stderr.write(`no route matches ${url.pathname}\n`);
    return 1;
  }
  return explainRequest({ registry, permissions, role: values.role, dialect: DIALECTS[values.dialect as keyof typeof DIALECTS] }, route, url.search.slice(1));
}

/** One block per type the role may use, one line per action. */
export function describeRole(registry: Registry, permissions: Permissions, role: string): string {
  const types = permissions.roles.get(role)!;
  const lines = [`role ${role}`];
  if (!types.size) lines.push('  may do nothing');
  for (const [uid, actions] of types) {
    const model = registry.models.get(uid) ?? (uid === LOCALE_UID ? null : registry.file);
    lines.push(`  ${model?.singularName ?? 'locale'} (${uid})`);
    if (!actions.size) lines.push('    no action');
    const width = Math.max(...[...actions.keys()].map((action) => action.length));
    for (const [action, rule] of actions) lines.push(`    ${action.padEnd(width)}  ${describeRule(action, rule)}`);
  }
  return `${lines.join('\n')}\n`;
}

function describeRule(action: Action, rule: ActionRule): string {
  const parts = [rule.whereText ? `rows where ${rule.whereText}` : action === 'create' ? 'any entry' : 'every row'];
  if (rule.set) parts.push(`sets ${[...rule.set].map(([name, value]) => `${name} = ${value instanceof CallerVariable ? value.toJSON() : JSON.stringify(value)}`).join(', ')}`);
  if (rule.fields) parts.push(rule.fields.mode === 'only' ? `only ${[...rule.fields.names].join(', ')}` : `every attribute but ${[...rule.fields.names].join(', ')}`);
  else if (action !== 'delete' && action !== 'preview') parts.push('every attribute');
  return parts.join('; ');
}
