/**
 * `content-api sync [--root DIR] [--database URL] [--change-triggers]`: create the tables, columns
 * and indexes the schema needs and the database lacks, and print each change; with
 * `--change-triggers`, the triggers a response cache hears writes by (storage/change-triggers.ts). Nothing existing is dropped or
 * altered, but an index sync made for a schema file's declaration that is gone or changed
 * (storage/declared-indexes.ts). Exit 0 when done, 1 on a schema problem, 2 on a usage error.
 */
import { loadSchema } from '../schema/load.js';
import { syncSchema } from '../storage/sync.js';
import { syncWebhookTables } from '../webhooks/check-file.js';
import { commandHelp, parseCommand, plural, prepareDatabase, SCHEMA_AND_DATABASE, SCHEMA_AND_DATABASE_HELP, withDatabase } from './common.js';

const OPTIONS = { ...SCHEMA_AND_DATABASE, 'change-triggers': { type: 'boolean', default: false } } as const;

const USAGE = commandHelp('sync [--root DIR] [--database URL] [--change-triggers]', OPTIONS, {
  ...SCHEMA_AND_DATABASE_HELP,
  'change-triggers': 'add the triggers that tell servers with a response cache (serve --cache) which tables change (PostgreSQL, MariaDB)',
});

/** Run the command; returns the exit code. */
export async function run(args: string[]): Promise<number> {
  const { values } = parseCommand(args, OPTIONS, USAGE);
  const registry = await loadSchema(values.root);
  return withDatabase(prepareDatabase(values.database), async (knex) => {
    const changes = await syncSchema(knex, registry, { log: (line) => process.stdout.write(`${line}\n`), changeTriggers: values['change-triggers'] });
    // The webhook outbox's tables, when webhooks.yaml declares targets.
    const tables = await syncWebhookTables(knex, values.root, registry);
    for (const table of tables) process.stdout.write(`created table ${table}\n`);
    const count = changes.length + tables.length;
    process.stdout.write(count ? `${plural(count, 'change')}\n` : 'database is up to date\n');
    return 0;
  });
}
