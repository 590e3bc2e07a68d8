/**
 * `copy` moves a Strapi database between SQLite, PostgreSQL and MariaDB without losing a value: exact
 * bigintegers, datetimes unshifted by any time zone, booleans, json of every shape, decimals,
 * dates and times — checked value by value on the target and row by row after a round trip.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import type { Knex } from 'knex';
import type { Registry } from '../../plugin/schema/registry.js';
import { copyDatabase, TargetNotEmptyError } from '../../plugin/storage/copy.js';
import { clientOf, openDatabase, rawRows } from '../../plugin/storage/database.js';
import { describeLayout } from '../../plugin/storage/layout.js';
import { syncSchema } from '../../plugin/storage/sync.js';
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from '../support/databases.js';
import { readColumns, readSqliteRows } from './catalog.js';
import { copyFixtureFile, createScratchFolder, loadExampleRegistry, REPO_ROOT, useOffsetTimeZone, type ScratchFolder } from './fixtures.js';

const run = promisify(execFile);
const CLI = join(REPO_ROOT, 'dist', 'plugin', 'cli.js');

/** Row counts of every table of the layout. */
async function countRows(knex: Knex, registry: Registry): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of describeLayout(registry).tables) {
    const [{ count }] = await knex(table.name).count({ count: '*' });
    counts[table.name] = Number(count);
  }
  return counts;
}

/** Article values read as text by SQL, so neither driver nor time zone can alter them. */
async function readArticleValues(knex: Knex, id: number): Promise<Record<string, unknown>> {
  const client = clientOf(knex);
  const sql = {
    postgres: `SELECT views_total::text AS views_total, to_char(created_at, 'YYYY-MM-DD HH24:MI:SS.MS') AS created_at,
         to_char(scheduled_at, 'YYYY-MM-DD HH24:MI:SS.MS') AS scheduled_at, featured, metadata::text AS metadata,
         jsonb_typeof(metadata) AS metadata_type, price::text AS price, publish_date::text AS publish_date,
         publish_time::text AS publish_time, rating FROM articles WHERE id = ?`,
    mysql: `SELECT CAST(views_total AS CHAR) AS views_total, DATE_FORMAT(created_at, '%Y-%m-%d %H:%i:%s.%f') AS created_at,
         DATE_FORMAT(scheduled_at, '%Y-%m-%d %H:%i:%s.%f') AS scheduled_at, featured, metadata,
         LOWER(JSON_TYPE(metadata)) AS metadata_type, CAST(price AS CHAR) AS price, CAST(publish_date AS CHAR) AS publish_date,
         CAST(publish_time AS CHAR) AS publish_time, rating FROM articles WHERE id = ?`,
    sqlite: `SELECT CAST(views_total AS TEXT) AS views_total, created_at, scheduled_at, featured, metadata,
         json_type(metadata) AS metadata_type, price, publish_date, publish_time, rating FROM articles WHERE id = ?`,
  }[client];
  return rawRows(knex, await knex.raw(sql, [id]))[0];
}

/** What readArticleValues gives for article 1's scalars on each engine (its datetimes in UTC). */
const FIRST_ARTICLE_VALUES = {
  postgres: { created_at: '2024-03-24 19:00:00.000', scheduled_at: '2024-12-24 16:00:00.000', price: '102.75', publish_date: '2024-07-17', publish_time: '08:14:59' },
  mysql: { created_at: '2024-03-24 19:00:00.000000', scheduled_at: '2024-12-24 16:00:00.000000', price: '102.75', publish_date: '2024-07-17', publish_time: '08:14:59.000' },
  sqlite: { created_at: 1711306800000, scheduled_at: 1735056000000, price: 102.75, publish_date: '2024-07-17', publish_time: '08:14:59.000' },
};

describe('storage copy', function () {
  this.timeout(120_000);
  let registry: Registry;
  let folder: ScratchFolder;
  let sourceFile: string;
  let source: Knex;
  let sourceCounts: Record<string, number>;
  useOffsetTimeZone();

  before(async () => {
    registry = await loadExampleRegistry();
    folder = createScratchFolder();
    sourceFile = copyFixtureFile('small', folder);
    source = openDatabase(`sqlite:${sourceFile}`);
    // A column the schema does not know: copy leaves it behind.
    await source.raw('ALTER TABLE articles ADD COLUMN legacy_note text');
    await source('articles').update({ legacy_note: 'not in the schema' });
    sourceCounts = await countRows(source, registry);
  });
  after(async () => {
    await source?.destroy();
    folder.remove();
  });

  for (const kind of testDatabaseKinds()) {
    describe(`strapi-small.db to ${kind.name}`, () => {
      let target: TestDatabase;
      const logged: string[] = [];
      before(async () => {
        target = await createTestDatabase(kind.client);
        await copyDatabase({ from: source, to: target.knex, registry, log: (line) => logged.push(line) });
      });
      after(() => target?.drop());

      it('prints the rows copied per table', () => {
        expect(logged).to.include.members(['articles: 50 rows', 'files: 16 rows', 'articles_components: 279 rows', 'files_related_morphs: 353 rows']);
      });

      it('copies every row of every table of the schema, and no column beyond it', async () => {
        expect(sourceCounts.articles).to.equal(50);
        expect(await countRows(target.knex, registry)).to.deep.equal(sourceCounts);
        expect((await readColumns(target.knex)).get('articles')).to.not.include('legacy_note');
      });

      it('keeps bigintegers, datetimes, booleans, decimals, dates, times and json exact', async () => {
        // PostgreSQL has booleans and keeps jsonb as values (spaced); SQLite and MariaDB keep 0/1 and the json text.
        const postgres = kind.client === 'postgres';
        const first = await readArticleValues(target.knex, 1);
        expect(first).to.deep.include({ views_total: '9007199254740993', featured: postgres ? false : 0, rating: 0.882 });
        expect(first).to.deep.include(FIRST_ARTICLE_VALUES[kind.client]);
        expect(first).to.deep.include({ metadata: postgres ? '[1, 2, 3]' : '[1,2,3]', metadata_type: 'array' });
        const stringType = kind.client === 'sqlite' ? 'text' : 'string';
        expect(await readArticleValues(target.knex, 2)).to.deep.include({ featured: postgres ? true : 1, metadata: '"just a string"', metadata_type: stringType });
        expect(await readArticleValues(target.knex, 3)).to.deep.include({ metadata: null, metadata_type: null });
        const object = await readArticleValues(target.knex, 6);
        expect(object.metadata_type).to.equal('object');
        expect(JSON.parse(object.metadata as string)).to.deep.equal({ nested: { deep: { value: 3 } }, list: [1, 'two', true, null] });
      });

      it('continues ids after the copied ones', async () => {
        const [article] = await target.knex('articles').insert({ title: 'After the copy' }, ['id']);
        const [join] = await target.knex('articles_components').insert({ entity_id: 1, component_id: 99, component_type: 'shared.link', field: 'links' }, ['id']);
        expect(Number(article.id ?? article)).to.equal(51);
        expect(Number(join.id ?? join)).to.equal(280);
        await target.knex('articles_components').where('id', 280).delete();
        await target.knex('articles').where('id', 51).delete();
      });

      it('copied back into a new SQLite file, equals the original row by row', async () => {
        const file = join(folder.path, `round-trip-${kind.name}.db`);
        const back = openDatabase(`sqlite:${file}`);
        try {
          await copyDatabase({ from: target.knex, to: back, registry });
        } finally {
          await back.destroy();
        }
        for (const table of describeLayout(registry).tables) {
          const names = table.columns.map((column) => column.name);
          const json = table.columns.filter((column) => column.type === 'jsonb').map((column) => column.name);
          // jsonb keeps values, not text: key order and spacing may differ.
          const normalize = (row: Record<string, unknown>) => {
            for (const column of json) if (typeof row[column] === 'string') row[column] = JSON.parse(row[column] as string);
            return row;
          };
          const original = readSqliteRows(sourceFile, table.name, names).map(normalize);
          expect(readSqliteRows(file, table.name, names).map(normalize), table.name).to.deep.equal(original);
        }
      });

      it('refuses a target that already has rows, and leaves it as it was', async () => {
        const before = await countRows(target.knex, registry);
        let refused: unknown;
        try {
          await copyDatabase({ from: source, to: target.knex, registry });
        } catch (error) {
          refused = error;
        }
        expect(refused).to.be.instanceOf(TargetNotEmptyError);
        expect((refused as TargetNotEmptyError).tables).to.include.members(['articles', 'files', 'files_related_morphs']);
        expect(await countRows(target.knex, registry)).to.deep.equal(before);
      });
    });

    describe(`content-api copy to ${kind.name}`, () => {
      let target: TestDatabase;
      before(async () => {
        target = await createTestDatabase(kind.client);
      });
      after(() => target?.drop());

      it('copies and prints each table, then refuses to copy again with exit code 1', async () => {
        const args = [CLI, 'copy', '--from', `sqlite:${sourceFile}`, '--to', target.url, '--root', REPO_ROOT];
        const first = await run(process.execPath, args);
        expect(first.stdout).to.include('\narticles: 50 rows\n').and.include('\nup_users_role_links: 8 rows\n').and.include('\ni18n_locale: 2 rows\n').and.match(/copied 1572 rows in 37 tables/);
        const second = await run(process.execPath, args).then(
          () => null,
          (error: { code: number; stderr: string }) => error,
        );
        expect(second?.code).to.equal(1);
        expect(second?.stderr).to.match(/already has rows in articles, /);
      });
    });

    describe(`a target with rows in one table (${kind.name})`, () => {
      let target: TestDatabase;
      before(async () => {
        target = await createTestDatabase(kind.client);
      });
      after(() => target?.drop());

      it('is refused without copying anything', async () => {
        await syncSchema(target.knex, registry);
        await target.knex('up_roles').insert({ name: 'Editor', type: 'editor' });
        let refused: unknown;
        try {
          await copyDatabase({ from: source, to: target.knex, registry });
        } catch (error) {
          refused = error;
        }
        expect((refused as TargetNotEmptyError).tables).to.deep.equal(['up_roles']);
        const counts = await countRows(target.knex, registry);
        expect(Object.values(counts).reduce((sum, count) => sum + count, 0)).to.equal(1);
      });
    });

    describe(`strapi-large.db to ${kind.name}`, () => {
      let target: TestDatabase;
      let large: Knex;
      before(async () => {
        target = await createTestDatabase(kind.client);
        large = openDatabase(`sqlite:${copyFixtureFile('large', folder)}`);
      });
      after(async () => {
        await large?.destroy();
        await target?.drop();
      });

      it('copies every row', async () => {
        await copyDatabase({ from: large, to: target.knex, registry });
        const counts = await countRows(target.knex, registry);
        expect(counts.articles).to.equal(5500);
        expect(counts).to.deep.equal(await countRows(large, registry));
      });
    });
  }
});
