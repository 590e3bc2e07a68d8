/**
 * `content-api check [--root DIR] [--database URL] [--allow-missing-permissions]`: validate the schema files,
 * permissions.yaml and webhooks.yaml (when there is one) against them, import the types' lifecycles modules, and report every problem at once — what `serve` would refuse.
 * With `--database`, also compare the database with the schema's layout: a missing table or column
 * is a problem, a missing declared index a warning (layout-differences.ts).
 * Exit 0 when both load, 1 with the problems, 2 on a usage error. A missing permissions.yaml is a
 * problem, as it is for `serve`, unless `--allow-missing-permissions` says the API is meant to be
 * closed.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parsePermissions, permissionsFormProblems, type Permissions } from '../access/permissions.js';
import { loadSchema } from '../schema/load.js';
import { formatProblem, SchemaError, type SchemaProblem } from '../schema/problems.js';
import type { Registry } from '../schema/registry.js';
import { commandHelp, parseCommand, plural } from './common.js';
import { checkWebhooksFile } from '../webhooks/check-file.js';
import { findLifecycleModules, importLifecycleModule } from '../write/lifecycles.js';
import { checkDatabase, describeDatabase } from '../storage/check-database.js';
import { openDatabase } from '../storage/database.js';
import { findLayoutDifferences, type LayoutDifferences } from '../storage/layout-differences.js';

const PERMISSIONS_FILE = 'permissions.yaml';
const OPTIONS = {
  root: { type: 'string', default: '.' },
  database: { type: 'string' },
  'allow-missing-permissions': { type: 'boolean', default: false },
} as const;
const USAGE = commandHelp('check [--root DIR] [--database URL] [--allow-missing-permissions]', OPTIONS, {
  root: ['DIR', 'the schema folder: content-types/, components/ and permissions.yaml (default .)'],
  database: ['URL', 'also compare this database with the schema: missing tables and columns are problems, missing declared indexes warnings'],
  'allow-missing-permissions': 'a missing permissions.yaml is no problem: the API is meant to be closed (as serve --allow-missing-permissions)',
});

type PermissionsCheck = { readonly permissions: Permissions | null; readonly problems: readonly SchemaProblem[]; readonly missing: boolean };

/** Run the command; returns the exit code. */
export async function run(args: string[]): Promise<number> {
  const { values } = parseCommand(args, OPTIONS, USAGE);
  const root = values.root;
  let registry: Registry | null = null;
  let schemaProblems: readonly SchemaProblem[] = [];
  try {
    registry = await loadSchema(root);
  } catch (error) {
    if (!(error instanceof SchemaError)) throw error;
    schemaProblems = error.problems;
  }
  const checked = await checkPermissions(join(root, PERMISSIONS_FILE), registry);
  const missing = checked.missing && !values['allow-missing-permissions'];
  const webhooks = await checkWebhooksFile(root, registry);
  const lifecycles = registry ? await lifecycleModuleProblems(root, registry) : [];
  const database = registry && values.database ? await checkLayout(values.database, registry) : { problems: [], warnings: [] };
  const problems = [...schemaProblems, ...checked.problems, ...webhooks.problems];
  const warnings = database.warnings.map((warning) => `warning: ${warning}\n`).join('');
  if (registry && !problems.length && !missing && !database.problems.length && !lifecycles.length) {
    const summary = checked.permissions
      ? `${PERMISSIONS_FILE} ok: ${plural(checked.permissions.roles.size, 'role')}, ${plural(checked.permissions.tokens.length, 'token')}`
      : `no ${PERMISSIONS_FILE}: the API is closed to every caller`;
    process.stdout.write(`schema ok: ${plural(registry.contentTypes.length, 'content type')}, ${plural(registry.components.length, 'component')}\n${summary}\n`);
    if (webhooks.summary) process.stdout.write(`${webhooks.summary}\n`);
    if (values.database) process.stdout.write(`database ok${database.warnings.length ? `, ${plural(database.warnings.length, 'warning')}:` : ''}\n${warnings}`);
    return 0;
  }
  // Paths relative to the working folder, so terminals and editors can open them.
  const lines = problems.map((problem) => formatProblem({ ...problem, file: join(root, problem.file) }));
  lines.push(...lifecycles, ...database.problems);
  if (missing) {
    lines.push(`${join(root, PERMISSIONS_FILE)}: no such file; serve refuses to start without it. Write it ("roles: {}" for an API closed to every caller), or pass --allow-missing-permissions`);
  }
  const count = lines.length;
  process.stdout.write(`${warnings}${lines.join('\n')}\n${count} schema problem${count === 1 ? '' : 's'}\n`);
  return 1;
}

/**
 * The lifecycles modules beside the schema files, imported as serve imports them: a module serve
 * would refuse (a TypeScript one this process cannot import, an export that is no hook) is a
 * problem here, not a hook that silently never runs.
 */
async function lifecycleModuleProblems(root: string, registry: Registry): Promise<string[]> {
  let files: Awaited<ReturnType<typeof findLifecycleModules>>;
  try {
    files = await findLifecycleModules(root, registry);
  } catch (error) {
    return [(error as Error).message];
  }
  const problems: string[] = [];
  for (const { file } of files) {
    try {
      await importLifecycleModule(file);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      problems.push(message.startsWith(file) ? message : `${file}: ${message}`);
    }
  }
  return problems;
}

/** permissions.yaml checked against the schema, or for its form alone when the schema did not load. */
async function checkPermissions(file: string, registry: Registry | null): Promise<PermissionsCheck> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { permissions: null, problems: [], missing: true };
    throw error;
  }
  if (!registry) return { permissions: null, problems: permissionsFormProblems(text, PERMISSIONS_FILE), missing: false };
  try {
    return { permissions: parsePermissions(text, PERMISSIONS_FILE, registry), problems: [], missing: false };
  } catch (error) {
    if (!(error instanceof SchemaError)) throw error;
    return { permissions: null, problems: error.problems, missing: false };
  }
}

/** The database's differences from the schema's layout, each problem naming the database. */
async function checkLayout(url: string, registry: Registry): Promise<LayoutDifferences> {
  const knex = openDatabase(url, { poolSize: 1, mustExist: true });
  try {
    await checkDatabase(knex);
    const differences = await findLayoutDifferences(knex, registry);
    const where = describeDatabase(knex);
    return { problems: differences.problems.map((problem) => `${where}: ${problem}`), warnings: differences.warnings.map((warning) => `${where}: ${warning}`) };
  } finally {
    await knex.destroy();
  }
}
