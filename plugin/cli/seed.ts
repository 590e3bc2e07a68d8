/**
 * `content-api seed [--root DIR] [--database URL]`: create the layout the schema needs, then fill
 * an empty database with the demo data of the example schema and print what it wrote, one line
 * per table. A database that already holds entries is left alone: seeding it would mix demo rows
 * into real content. Exit 0 when seeded, 1 when the database has entries or on a schema problem,
 * 2 on a usage error.
 */
import { loadSchema } from '../schema/load.js';
import { existingEntries, formatSummary, seedIfEmpty } from '../seed/seed.js';
import { syncSchema } from '../storage/sync.js';
import { commandHelp, parseCommand, plural, prepareDatabase, SCHEMA_AND_DATABASE, SCHEMA_AND_DATABASE_HELP, withDatabase } from './common.js';
import { progressBar } from './progress.js';

const USAGE = commandHelp('seed [--root DIR] [--database URL]', SCHEMA_AND_DATABASE, SCHEMA_AND_DATABASE_HELP);

/** Run the command; returns the exit code. */
export async function run(args: string[]): Promise<number> {
  const { values } = parseCommand(args, SCHEMA_AND_DATABASE, USAGE);
  const registry = await loadSchema(values.root);
  return withDatabase(prepareDatabase(values.database), async (knex) => {
    const changes = await syncSchema(knex, registry);
    if (changes.length) process.stdout.write(`created the layout (${plural(changes.length, 'change')})\n`);
    const bar = progressBar(process.stdout, 'seeding');
    const summary = await seedIfEmpty(knex, registry, bar.update).finally(bar.finish);
    if (!summary) {
      const tables = (await existingEntries(knex, registry)).map((entry) => `${entry.table}: ${entry.rows}`).join(', ');
      process.stderr.write(`content-api seed: the database already has entries (${tables}); seed only fills an empty database\n`);
      return 1;
    }
    process.stdout.write(`${formatSummary(summary).join('\n')}\n`);
    return 0;
  });
}
