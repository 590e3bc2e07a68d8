/**
 * The demo data set of the example schema (articles, categories, restaurants, users and roles,
 * media), written in one transaction through the generated models. It is deterministic: a fixed
 * seed drives every choice and every timestamp is an offset from a fixed date, so two empty
 * databases seeded with it hold the same rows with the same ids.
 */
import type { Knex } from 'knex';
import type { Registry } from '../schema/registry.js';
import { describeLayout } from '../storage/layout.js';
import { buildModels } from '../storage/models.js';
import type { TestData } from '../testing/data-file.js';
import { loadTestData } from '../testing/load-data.js';
import type { UploadedFiles } from '../testing/upload-files.js';
import { ARTICLE_UID, seedArticles } from './articles.js';
import { CATEGORY_UID, seedCategories } from './categories.js';
import { seedFiles } from './files.js';
import { SeededRandom } from './random.js';
import { RESTAURANT_UID, seedRestaurants } from './restaurants.js';
import { ROLE_UID, seedUsers, USER_UID } from './users.js';
import { STOCK_ROLES } from '../auth/stock-roles.js';
import { SeedWriter } from './writer.js';

/** How many rows the seeding added to one table. */
export interface SeededTable {
  readonly table: string;
  readonly rows: number;
}

/** What a seeding wrote: the tables it added rows to, in layout order, and the total. */
export interface SeedSummary {
  readonly tables: readonly SeededTable[];
  readonly total: number;
}

/** The seed of the demo data's random sequence; changing it changes every generated value. */
const DEMO_SEED = 20240108;

/** The models the demo data writes, besides the file type every registry has. */
const REQUIRED_MODELS = [
  ARTICLE_UID,
  CATEGORY_UID,
  RESTAURANT_UID,
  USER_UID,
  ROLE_UID,
  'shared.seo',
  'shared.meta-social',
  'shared.link',
  'shared.related-content',
  'shared.rich-text',
  'shared.quote',
  'shared.media',
  'shared.slider',
  'shared.address',
  'restaurant.opening-hour',
];

/** Fails before writing anything when the registry is not the example schema's. */
export function assertExampleSchema(registry: Registry): void {
  const missing = REQUIRED_MODELS.filter((uid) => !registry.models.has(uid));
  if (missing.length) {
    throw new Error(`the demo data is written for the example schema; this schema lacks ${missing.join(', ')} (load a data file of your own with --data FILE)`);
  }
  if (!registry.models.get(ARTICLE_UID)?.localized) throw new Error(`the demo data needs ${ARTICLE_UID} to be localized (i18n), as in the example schema`);
}

/** The row count of every table of the layout. */
async function countRows(knex: Knex, tables: readonly string[]): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const table of tables) {
    const [row] = await knex(table).count({ rows: '*' });
    counts.set(table, Number(row?.rows ?? 0));
  }
  return counts;
}

/** Told as the seeding goes: `done` of `total` parts of the data set written, the part under way. */
export type SeedProgress = (done: number, total: number, part: string) => void;

/** Runs `write` within `trx` and sums up the rows it added, per table of the layout. */
async function summarize(trx: Knex.Transaction, registry: Registry, write: () => Promise<unknown>): Promise<SeedSummary> {
  const tables = describeLayout(registry).tables.map((table) => table.name);
  const before = await countRows(trx, tables);
  await write();
  const after = await countRows(trx, tables);
  const seeded = tables
    .map((table) => ({ table, rows: (after.get(table) ?? 0) - (before.get(table) ?? 0) }))
    .filter((entry) => entry.rows > 0);
  return { tables: seeded, total: seeded.reduce((sum, entry) => sum + entry.rows, 0) };
}

/** Writes the demo data within `trx` and sums up what it added. */
async function writeDemoData(trx: Knex.Transaction, registry: Registry, progress: SeedProgress = () => undefined): Promise<SeedSummary> {
  assertExampleSchema(registry);
  return summarize(trx, registry, () => writeDemoParts(trx, registry, progress));
}

async function writeDemoParts(trx: Knex.Transaction, registry: Registry, progress: SeedProgress): Promise<void> {
  const writer = new SeedWriter(registry, buildModels(registry, { knex: trx }));
  const random = new SeededRandom(DEMO_SEED);
  const parts = 5;
  progress(0, parts, 'files');
  const files = await seedFiles(writer, random);
  progress(1, parts, 'users');
  const users = await seedUsers(writer, random);
  progress(2, parts, 'categories');
  const categories = await seedCategories(writer, random, files);
  progress(3, parts, 'restaurants');
  const restaurants = await seedRestaurants(writer, random, files, categories);
  progress(4, parts, 'articles');
  await seedArticles({ writer, random, files, users, categories, restaurants });
  progress(5, parts, '');
}

/**
 * The content-type tables that already hold entries, with their row counts (the media library
 * and component tables are not entries).
 */
/**
 * Whether no content-type table holds an entry, but for Strapi's two default roles, which the API
 * gives a fresh database it serves end users from (auth/stock-roles.ts): a database that was only
 * started is still one to seed.
 */
async function emptyButStockRoles(knex: Knex, registry: Registry): Promise<boolean> {
  const existing = await existingEntries(knex, registry);
  const roles = registry.models.get(ROLE_UID);
  if (!existing.length) return true;
  if (!roles || existing.length > 1 || existing[0].table !== roles.tableName) return false;
  const rows = (await knex(roles.tableName).select('name', 'type', 'description').orderBy('id')) as { name: string; type: string; description: string }[];
  return rows.length === STOCK_ROLES.length && rows.every((row, index) => row.type === STOCK_ROLES[index].type && row.name === STOCK_ROLES[index].name);
}

export async function existingEntries(knex: Knex, registry: Registry): Promise<SeededTable[]> {
  const counts = await countRows(knex, registry.contentTypes.map((model) => model.tableName));
  return [...counts].filter(([, rows]) => rows > 0).map(([table, rows]) => ({ table, rows }));
}

/**
 * Writes the demo data set, in one transaction: all of it or, on any error, nothing. The layout
 * must exist (see `syncSchema`). Ids continue from what the tables hold, so seed an empty
 * database for the ids to be the same every time.
 */
export async function seedDemoData(knex: Knex, registry: Registry): Promise<SeedSummary> {
  return knex.transaction((trx) => writeDemoData(trx, registry));
}

/**
 * Seeds only a database without entries: when no content-type table holds a row, writes the
 * demo data and returns its summary; otherwise writes nothing and returns null. The check and
 * the writes share one transaction.
 */
export async function seedIfEmpty(knex: Knex, registry: Registry, progress?: SeedProgress): Promise<SeedSummary | null> {
  return knex.transaction(async (trx) => {
    if (!(await emptyButStockRoles(trx, registry))) return null;
    // The demo data writes Strapi's roles itself, with the ids of a fresh database.
    const roles = registry.models.get(ROLE_UID);
    if (roles) await trx(roles.tableName).delete();
    return writeDemoData(trx, registry, progress);
  });
}

/**
 * Loads a checked data file (the testing kit's format) into a database without entries, in one
 * transaction, and sums up what it wrote; returns null and writes nothing when a content-type
 * table already holds a row: the file's entries would mix with content it knows nothing of.
 * `uploaded`: the files the data names by path, already uploaded (testing/upload-files.ts).
 */
export async function loadDataIfEmpty(knex: Knex, registry: Registry, data: TestData, now: Date, uploaded?: UploadedFiles): Promise<SeedSummary | null> {
  return knex.transaction(async (trx) => {
    if (!(await emptyButStockRoles(trx, registry))) return null;
    return summarize(trx, registry, () => loadTestData(trx, registry, data, now, uploaded));
  });
}

/** One line per seeded table (`articles  32 rows`), then the total. */
export function formatSummary(summary: SeedSummary): string[] {
  const width = Math.max(0, ...summary.tables.map((entry) => entry.table.length));
  const plural = (rows: number) => `${rows} row${rows === 1 ? '' : 's'}`;
  return [...summary.tables.map((entry) => `  ${entry.table.padEnd(width)}  ${plural(entry.rows)}`), `seeded ${plural(summary.total)} in ${summary.tables.length} table${summary.tables.length === 1 ? '' : 's'}`];
}
