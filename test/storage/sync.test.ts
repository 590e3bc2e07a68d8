/**
 * `sync` only ever adds: it is idempotent, leaves a database Strapi wrote exactly as it was, and
 * extends an existing database with a new column or table without touching its rows.
 */
import { execFile } from 'node:child_process';
import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { expect } from 'chai';
import type { Knex } from 'knex';
import { parse, stringify } from 'yaml';
import { loadPermissions } from '../../plugin/access/permissions.js';
import { planRestRead } from '../../plugin/http/rest-read.js';
import { loadSchema } from '../../plugin/schema/load.js';
import { compileRequest } from '../../plugin/sql/compile.js';
import { sqliteDialect } from '../../plugin/sql/dialect/sqlite.js';
import type { Registry } from '../../plugin/schema/registry.js';
import { openDatabase } from '../../plugin/storage/database.js';
import { registerSqlFunctions, type SqliteConnection } from '../../plugin/storage/sql-functions.js';
import { syncSchema } from '../../plugin/storage/sync.js';
import { describeLayout, queryIndexNames } from '../../plugin/storage/layout.js';
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from '../support/databases.js';
import { readColumns, readForeignKeys, readIndexes } from './catalog.js';
import { copyFixtureFile, createScratchFolder, loadExampleRegistry, REPO_ROOT, type ScratchFolder } from './fixtures.js';

const run = promisify(execFile);

/** The page subquery of the public role's articles list for `querystring`, compiled for SQLite. */
async function listPage(registry: Registry, querystring: string): Promise<{ sql: string; values: readonly unknown[] }> {
  const permissions = (await loadPermissions(join(REPO_ROOT, 'permissions.yaml'), 'permissions.yaml', registry))!;
  const root = planRestRead(
    { registry, limits: { defaultLimit: 25, maxLimit: 100, withCount: true }, permissions },
    { model: registry.routes.get('articles')!, action: 'find', id: null, querystring, role: 'public' },
  );
  const { entries } = compileRequest(sqliteDialect, root);
  return { sql: entries.sql, values: entries.values };
}
const CLI = join(REPO_ROOT, 'dist', 'plugin', 'cli.js');

/** The example schema with a `subtitle` on articles and a new `tag` type linked to articles. */
function writeExtendedSchema(folder: ScratchFolder): string {
  const root = join(folder.path, 'schema');
  cpSync(join(REPO_ROOT, 'content-types'), join(root, 'content-types'), { recursive: true });
  cpSync(join(REPO_ROOT, 'components'), join(root, 'components'), { recursive: true });
  const articleFile = join(root, 'content-types', 'article.yaml');
  const article = parse(readFileSync(articleFile, 'utf8'));
  article.attributes.subtitle = { type: 'string' };
  writeFileSync(articleFile, stringify(article));
  const tag = {
    kind: 'collectionType',
    collectionName: 'tags',
    info: { singularName: 'tag', pluralName: 'tags', displayName: 'Tag' },
    options: { draftAndPublish: false },
    attributes: { label: { type: 'uid' }, articles: { type: 'relation', relation: 'manyToMany', target: 'api::article.article' } },
  };
  writeFileSync(join(root, 'content-types', 'tag.yaml'), stringify(tag));
  return root;
}

async function readCatalog(knex: Knex) {
  return { columns: Object.fromEntries(await readColumns(knex)), indexes: await readIndexes(knex), keys: Object.fromEntries(await readForeignKeys(knex)) };
}

describe('storage sync', function () {
  this.timeout(60_000);
  let registry: Registry;
  let folder: ScratchFolder;
  before(async () => {
    registry = await loadExampleRegistry();
    folder = createScratchFolder();
  });
  after(() => folder.remove());

  it("adds only the API's query indexes to a copy of strapi-small.db, then nothing", async () => {
    const file = copyFixtureFile('small', folder, 'unchanged.db');
    const knex = openDatabase(`sqlite:${file}`);
    try {
      const catalog = () => knex.raw(`SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name NOT IN (${queryIndexNames(describeLayout(registry)).map(() => '?').join(', ')}) ORDER BY type, name`, queryIndexNames(describeLayout(registry)));
      const before = await catalog();
      expect(await syncSchema(knex, registry)).to.deep.equal([
        { kind: 'index', table: 'articles', name: 'articles_locale_published_at_index' },
        { kind: 'index', table: 'articles', name: 'articles_id_locale_published_at_index' },
      ]);
      expect(await syncSchema(knex, registry)).to.deep.equal([]);
      expect(await catalog()).to.deep.equal(before);
      expect(before.length).to.be.above(100);
      // The page of a list, as compiled, now reads the rows it skips from the narrow index.
      const page = await listPage(registry, 'pagination[page]=150');
      const reader = new Database(file, { readonly: true });
      try {
        registerSqlFunctions(reader as unknown as SqliteConnection);
        const plan = reader.prepare(`EXPLAIN QUERY PLAN ${page.sql}`).all(sqliteDialect.bindings(page.values)) as { detail: string }[];
        expect(plan.map((step) => step.detail)).to.include('SCAN t USING COVERING INDEX articles_id_locale_published_at_index');
      } finally {
        reader.close();
      }
    } finally {
      await knex.destroy();
    }
  });

  for (const kind of testDatabaseKinds()) {
    describe(`on ${kind.name}`, () => {
      let database: TestDatabase;
      beforeEach(async () => {
        database = await createTestDatabase(kind.client);
      });
      afterEach(() => database?.drop());

      it('creates every table once and is idempotent', async () => {
        const logged: string[] = [];
        const first = await syncSchema(database.knex, registry, { log: (line) => logged.push(line) });
        expect(first.filter((change) => change.kind === 'table')).to.have.length(32);
        expect(first.every((change) => change.kind === 'table')).to.equal(true);
        expect(logged).to.include('created table articles_components');
        const catalog = await readCatalog(database.knex);
        expect(await syncSchema(database.knex, registry)).to.deep.equal([]);
        expect(await readCatalog(database.knex)).to.deep.equal(catalog);
      });

      it('adds a new column and a new table without touching existing rows', async () => {
        const knex = database.knex;
        await syncSchema(knex, registry);
        await knex('articles').insert({ id: 7, title: 'Kept', views_total: '9007199254740993', locale: 'en' });
        await knex('categories').insert({ id: 3, name: 'Food', slug: 'food' });
        await knex('articles_category_links').insert({ article_id: 7, category_id: 3, article_order: 1 });
        const before = { articles: await knex('articles').select('id', 'title', 'locale'), links: await knex('articles_category_links') };

        const changes = await syncSchema(knex, await loadSchema(writeExtendedSchema(folder)));

        expect(changes).to.deep.include({ kind: 'column', table: 'articles', name: 'subtitle' });
        expect(changes).to.deep.include({ kind: 'table', table: 'tags', name: 'tags' });
        expect(changes).to.deep.include({ kind: 'table', table: 'tags_articles_links', name: 'tags_articles_links' });
        expect(changes).to.have.length(3);
        expect(await knex('articles').select('id', 'title', 'locale')).to.deep.equal(before.articles);
        expect(await knex('articles_category_links')).to.deep.equal(before.links);
        // MariaDB has no TEXT target type for CAST; CHAR is its text.
        const asText = kind.client === 'mysql' ? 'CHAR' : 'TEXT';
        const [row] = await knex('articles').select(knex.raw(`CAST(views_total AS ${asText}) AS views_total`), 'subtitle');
        expect(row).to.deep.equal({ views_total: '9007199254740993', subtitle: null });
        expect((await readColumns(knex)).get('tags')).to.deep.equal(['id', 'label', 'created_at', 'updated_at', 'created_by_id', 'updated_by_id']);
      });

      it('adds a missing index to an existing table', async () => {
        await syncSchema(database.knex, registry);
        await database.knex.schema.alterTable('articles', (table) => table.dropUnique(['slug'], 'articles_slug_unique'));
        expect(await syncSchema(database.knex, registry)).to.deep.equal([{ kind: 'index', table: 'articles', name: 'articles_slug_unique' }]);
        expect(await readIndexes(database.knex)).to.satisfy((names: string[]) => names.some((name) => name.startsWith('articles_slug_unique')));
      });

      it('content-api sync prints the changes, then that the database is up to date', async () => {
        const url = kind.client === 'sqlite' ? `sqlite:${join(folder.path, kind.name, '.data', 'content.db')}` : database.url;
        const first = await run(process.execPath, [CLI, 'sync', '--root', REPO_ROOT, '--database', url]);
        expect(first.stdout).to.include('created table articles\n').and.include('created table files_related_morphs\n').and.include('32 changes\n');
        if (kind.client === 'sqlite') expect(existsSync(join(folder.path, kind.name, '.data', 'content.db'))).to.equal(true);
        const second = await run(process.execPath, [CLI, 'sync', '--root', REPO_ROOT, '--database', url]);
        expect(second.stdout).to.equal('database is up to date\n');
      });
    });
  }
});
