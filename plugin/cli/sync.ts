/**
 * `content-api sync [--root DIR] [--database URL]`: create the tables, columns and indexes the
 * schema needs and the database lacks, and print each change. Nothing existing is dropped or
 * altered. Exit 0 when done, 1 on a schema problem, 2 on a usage error.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import { loadSchema } from '../schema/load.js';
import { SchemaError } from '../schema/problems.js';
import { openDatabase, parseDatabaseUrl } from '../storage/database.js';
import { syncSchema } from '../storage/sync.js';

const USAGE = 'usage: content-api sync [--root DIR] [--database URL]\n';

const OPTIONS = {
  root: { type: 'string', default: '.' },
  database: { type: 'string', default: 'sqlite:.data/content.db' },
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
  let registry;
  try {
    registry = await loadSchema(values.root);
  } catch (error) {
    if (!(error instanceof SchemaError)) throw error;
    process.stderr.write(`${error.message}\n`);
    return 1;
  }
  const location = parseDatabaseUrl(values.database);
  if (location.client === 'sqlite' && location.target !== ':memory:') mkdirSync(dirname(location.target), { recursive: true });
  const knex = openDatabase(location, { poolSize: 1 });
  try {
    const changes = await syncSchema(knex, registry, { log: (line) => process.stdout.write(`${line}\n`) });
    process.stdout.write(changes.length ? `${changes.length} change${changes.length === 1 ? '' : 's'}\n` : 'database is up to date\n');
    return 0;
  } finally {
    await knex.destroy();
  }
}
