/**
 * `content-api seed [--root DIR] [--database URL] [--data FILE]`: create the layout the schema
 * needs, then fill an empty database and print what it wrote, one line per table. Without
 * `--data` it writes the demo data of the example schema; with it, a data file in the testing
 * kit's format, for any schema. Either is checked before the database is opened (a data file
 * against the schema, every problem with file:line:col), so data that cannot be loaded writes
 * nothing, not even tables. A database that already holds entries is left alone: seeding it
 * would mix these rows into real content. Exit 0 when seeded, 1 when the database has entries,
 * on a schema or data problem, 2 on a usage error.
 */
import { readFile } from 'node:fs/promises';
import { loadSchema } from '../schema/load.js';
import { assertExampleSchema, existingEntries, formatSummary, loadDataIfEmpty, seedIfEmpty, type SeedSummary } from '../seed/seed.js';
import { syncSchema } from '../storage/sync.js';
import { parseTestData } from '../testing/data-file.js';
import { commandHelp, parseCommand, plural, prepareDatabase, SCHEMA_AND_DATABASE, SCHEMA_AND_DATABASE_HELP, withDatabase } from './common.js';
import { progressBar } from './progress.js';

const OPTIONS = { ...SCHEMA_AND_DATABASE, data: { type: 'string' } } as const;

const USAGE = commandHelp('seed [--root DIR] [--database URL] [--data FILE]', OPTIONS, {
  ...SCHEMA_AND_DATABASE_HELP,
  data: ['FILE', "a data file in the testing kit's format (koa-content-api/testing), for any schema; without it, the example schema's demo data"],
});

/** Run the command; returns the exit code. */
export async function run(args: string[]): Promise<number> {
  const { values } = parseCommand(args, OPTIONS, USAGE);
  const registry = await loadSchema(values.root);
  const file = values.data;
  const data = file === undefined ? null : parseTestData(await readDataFile(file), file, registry);
  if (!data) assertExampleSchema(registry);
  return withDatabase(prepareDatabase(values.database), async (knex) => {
    const changes = await syncSchema(knex, registry);
    if (changes.length) process.stdout.write(`created the layout (${plural(changes.length, 'change')})\n`);
    let summary: SeedSummary | null;
    if (data) {
      summary = await loadDataIfEmpty(knex, registry, data, new Date());
    } else {
      const bar = progressBar(process.stdout, 'seeding');
      summary = await seedIfEmpty(knex, registry, bar.update).finally(bar.finish);
    }
    if (!summary) {
      const tables = (await existingEntries(knex, registry)).map((entry) => `${entry.table}: ${entry.rows}`).join(', ');
      process.stderr.write(`content-api seed: the database already has entries (${tables}); seed only fills an empty database\n`);
      return 1;
    }
    process.stdout.write(`${formatSummary(summary).join('\n')}\n`);
    return 0;
  });
}

async function readDataFile(file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    throw new Error(`cannot read the data file ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}
