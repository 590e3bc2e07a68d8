/**
 * `content-api seed [--root DIR] [--database URL] [--data FILE]`: create the layout the schema
 * needs, then fill an empty database and print what it wrote, one line per table. Without
 * `--data` it writes the demo data of the example schema; with it, a data file in the testing
 * kit's format, for any schema. Either is checked before the database is opened (a data file
 * against the schema, every problem with file:line:col), so data that cannot be loaded writes
 * nothing, not even tables. A database that already holds entries is left alone: seeding it
 * would mix these rows into real content. Files a data file names by path (`{ file: … }`) are
 * uploaded first, where `serve` keeps uploads (upload-env.ts); a load that fails removes them
 * again. Exit 0 when seeded, 1 when the database has entries, on a schema or data problem, 2 on a
 * usage error.
 */
import { readFile } from 'node:fs/promises';
import type { Knex } from 'knex';
import { contentApi } from '../index.js';
import type { Registry } from '../schema/registry.js';
import { loadSchema } from '../schema/load.js';
import { assertExampleSchema, existingEntries, formatSummary, loadDataIfEmpty, seedIfEmpty, type SeedSummary } from '../seed/seed.js';
import { syncSchema } from '../storage/sync.js';
import { parseTestData, type TestData } from '../testing/data-file.js';
import { filesToUpload, uploadDataFiles, type FileToUpload, type UploadedFile } from '../testing/upload-files.js';
import { uploadFromEnv } from './upload-env.js';
import { commandHelp, parseCommand, plural, prepareDatabase, SCHEMA_AND_DATABASE, SCHEMA_AND_DATABASE_HELP, UsageError, withDatabase } from './common.js';
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
  const withFiles = data !== null && filesToUpload(data).length > 0;
  const upload = withFiles ? uploadSettings() : undefined;
  return withDatabase(prepareDatabase(values.database), async (knex) => {
    const changes = await syncSchema(knex, registry);
    if (changes.length) process.stdout.write(`created the layout (${plural(changes.length, 'change')})\n`);
    let summary: SeedSummary | null;
    if (data) {
      summary = withFiles ? await loadWithFiles(knex, { root: values.root, registry, data, upload }) : await loadDataIfEmpty(knex, registry, data, new Date());
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

/** serve's upload storage, from the environment (a bad setting is a usage error, as for serve). */
function uploadSettings(): ReturnType<typeof uploadFromEnv> {
  try {
    return uploadFromEnv(process.env);
  } catch (error) {
    throw new UsageError((error as Error).message, USAGE);
  }
}

interface FilesLoad {
  readonly root: string;
  readonly registry: Registry;
  readonly data: TestData;
  readonly upload: ReturnType<typeof uploadFromEnv>;
}

/**
 * A data file naming local files: each uploaded through the media library as `serve` would store
 * it (the type from the content, the image formats), then the entries in one transaction. An
 * upload or a load that fails removes the files already uploaded, so a failed seed leaves the
 * database and the storage as it found them. Their webhook events are recorded, for `serve` to
 * deliver, as for any upload.
 */
async function loadWithFiles(knex: Knex, { root, registry, data, upload }: FilesLoad): Promise<SeedSummary | null> {
  // Checked before anything is uploaded; the load checks again in its transaction.
  if ((await existingEntries(knex, registry)).length) return null;
  const api = await contentApi({ root, database: knex, sync: false, upload: upload ?? {}, allowMissingPermissions: true, watchPermissions: false, webhooks: { deliver: false }, sqliteReadWorkers: 0, logger: false });
  const uploaded = new Map<FileToUpload, UploadedFile>();
  try {
    await uploadDataFiles(api.media, data, uploaded);
    const summary = await loadDataIfEmpty(knex, registry, data, new Date(), uploaded);
    if (!summary) await removeAll(api.media, uploaded);
    else process.stdout.write(`uploaded ${plural(uploaded.size, 'file')}\n`);
    return summary;
  } catch (error) {
    await removeAll(api.media, uploaded);
    throw error;
  } finally {
    await api.close();
  }
}

async function removeAll(media: { remove(id: number): Promise<void> }, uploaded: ReadonlyMap<FileToUpload, UploadedFile>): Promise<void> {
  for (const { id } of uploaded.values()) await media.remove(id);
}

async function readDataFile(file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    throw new Error(`cannot read the data file ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}
