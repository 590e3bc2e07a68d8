/**
 * `content-api seed [--root DIR] [--database URL]`: create the layout the schema needs, then fill
 * an empty database with the demo data of the example schema and print what it wrote, one line
 * per table. A database that already holds entries is left alone: seeding it would mix demo rows
 * into real content. Exit 0 when seeded, 1 when the database has entries or on a schema problem,
 * 2 on a usage error.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import { loadSchema } from '../schema/load.js';
import { SchemaError } from '../schema/problems.js';
import { existingEntries, formatSummary, seedIfEmpty } from '../seed/seed.js';
import { openDatabase, parseDatabaseUrl } from '../storage/database.js';
import { syncSchema } from '../storage/sync.js';

const USAGE = 'usage: content-api seed [--root DIR] [--database URL]\n';

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
    const changes = await syncSchema(knex, registry);
    if (changes.length) process.stdout.write(`created the layout (${changes.length} change${changes.length === 1 ? '' : 's'})\n`);
    const summary = await seedIfEmpty(knex, registry);
    if (!summary) {
      const tables = (await existingEntries(knex, registry)).map((entry) => `${entry.table}: ${entry.rows}`).join(', ');
      process.stderr.write(`content-api seed: the database already has entries (${tables}); seed only fills an empty database\n`);
      return 1;
    }
    process.stdout.write(`${formatSummary(summary).join('\n')}\n`);
    return 0;
  } finally {
    await knex.destroy();
  }
}
