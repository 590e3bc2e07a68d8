/**
 * `content-api copy --from URL --to URL [--root DIR]`: copy every table of the schema from one
 * database to another (e.g. a Strapi SQLite database to PostgreSQL), printing the rows per
 * table. The target gets the layout first and must have no rows in those tables. Exit 0 when
 * done, 1 when the schema or the copy fails (the target is then left as it was), 2 on a usage error.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import { loadSchema } from '../schema/load.js';
import { SchemaError } from '../schema/problems.js';
import { copyDatabase, TargetNotEmptyError } from '../storage/copy.js';
import { openDatabase, parseDatabaseUrl } from '../storage/database.js';

const USAGE = 'usage: content-api copy --from URL --to URL [--root DIR]\n';

const OPTIONS = {
  from: { type: 'string' },
  to: { type: 'string' },
  root: { type: 'string', default: '.' },
} as const;

/** Run the command; returns the exit code. */
export async function run(args: string[]): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({ args, options: OPTIONS, strict: true, allowPositionals: false }));
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  if (!values.from || !values.to) {
    process.stderr.write(USAGE);
    return 2;
  }
  const from = parseDatabaseUrl(values.from);
  const to = parseDatabaseUrl(values.to);
  // Opening a missing SQLite file would create it and copy nothing.
  if (from.client === 'sqlite' && !existsSync(from.target)) {
    process.stderr.write(`content-api copy: ${from.target} does not exist\n`);
    return 1;
  }
  if (to.client === 'sqlite' && to.target !== ':memory:') mkdirSync(dirname(to.target), { recursive: true });
  let registry;
  try {
    registry = await loadSchema(values.root);
  } catch (error) {
    if (!(error instanceof SchemaError)) throw error;
    process.stderr.write(`${error.message}\n`);
    return 1;
  }
  const source = openDatabase(from, { poolSize: 1 });
  const target = openDatabase(to, { poolSize: 1 });
  const started = Date.now();
  try {
    const copied = await copyDatabase({ from: source, to: target, registry, log: (line) => process.stdout.write(`${line}\n`) });
    const rows = copied.reduce((sum, table) => sum + table.rows, 0);
    process.stdout.write(`copied ${rows} rows in ${copied.length} tables in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
    return 0;
  } catch (error) {
    if (!(error instanceof TargetNotEmptyError)) throw error;
    process.stderr.write(`content-api copy: ${error.message}\n`);
    return 1;
  } finally {
    await Promise.all([source.destroy(), target.destroy()]);
  }
}
