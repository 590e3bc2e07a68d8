/**
 * Indexes a schema file declares (`index: true`, `indexes:`): `sync` creates them with a mark on
 * every engine, a second sync changes nothing, a declaration removed or changed drops or remakes
 * only the index sync made (never Strapi's, never one added by hand), `serve --no-sync` creates
 * none, and `check --database` reports a missing one. On a copy of the large fixture, SQLite
 * reads q10's page (`sort=views:desc`) from the declared index.
 */
import { execFile } from 'node:child_process';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { expect } from 'chai';
import type { Knex } from 'knex';
import { parse, stringify } from 'yaml';
import { contentApi } from '../../plugin/index.js';
import { loadPermissions } from '../../plugin/access/permissions.js';
import { planRestRead } from '../../plugin/http/rest-read.js';
import type { RootQuery } from '../../plugin/query/tree.js';
import { loadSchema } from '../../plugin/schema/load.js';
import type { Registry } from '../../plugin/schema/registry.js';
import { compileRequest } from '../../plugin/sql/compile.js';
import { mysqlDialect } from '../../plugin/sql/dialect/mysql.js';
import { positionalStatement } from '../../plugin/sql/positional.js';
import { copyDatabase } from '../../plugin/storage/copy.js';
import { sqliteDialect } from '../../plugin/sql/dialect/sqlite.js';
import { clientOf } from '../../plugin/storage/database.js';
import { inspectDatabase, storedName } from '../../plugin/storage/inspect.js';
import { findLayoutDifferences } from '../../plugin/storage/layout-differences.js';
import { registerSqlFunctions, type SqliteConnection } from '../../plugin/storage/sql-functions.js';
import { syncSchema } from '../../plugin/storage/sync.js';
import { createTestDatabase, mysqlServerUrl, testDatabaseKinds, type TestDatabase } from '../support/databases.js';
import { copyFixtureFile, createScratchFolder, REPO_ROOT, type ScratchFolder } from '../storage/fixtures.js';

const run = promisify(execFile);
const CLI = join(REPO_ROOT, 'dist', 'plugin', 'cli.js');

type Document = { attributes: Record<string, Record<string, unknown>>; indexes?: unknown[] };

/** The example schema in `folder/<name>`, with article.yaml and seo.yaml edited. */
function writeSchema(folder: ScratchFolder, name: string, edit: (article: Document, seo: Document) => void): string {
  const root = join(folder.path, name);
  cpSync(join(REPO_ROOT, 'content-types'), join(root, 'content-types'), { recursive: true });
  cpSync(join(REPO_ROOT, 'components'), join(root, 'components'), { recursive: true });
  cpSync(join(REPO_ROOT, 'permissions.yaml'), join(root, 'permissions.yaml'));
  const articleFile = join(root, 'content-types', 'article.yaml');
  const seoFile = join(root, 'components', 'shared', 'seo.yaml');
  const article = parse(readFileSync(articleFile, 'utf8')) as Document;
  const seo = parse(readFileSync(seoFile, 'utf8')) as Document;
  edit(article, seo);
  writeFileSync(articleFile, stringify(article));
  writeFileSync(seoFile, stringify(seo));
  return root;
}

/** views indexed, a compound index over an implicit attribute, and an index in a component. */
function declareIndexes(article: Document, seo: Document): void {
  article.attributes.views.index = true;
  article.indexes = [{ attributes: ['kind', 'publishedAt'] }, { name: 'articles_by_rating', attributes: ['rating', 'id'] }];
  seo.attributes.metaTitle.index = true;
}

/** The marked indexes of a table, by name as the database stores it, with the columns their mark names. */
async function declaredIn(knex: Knex, table: string): Promise<Record<string, string>> {
  return Object.fromEntries((await inspectDatabase(knex)).get(table)?.declaredIndexes ?? []);
}

/** How the engine's catalog shows an index's keys: SQLite's and PostgreSQL's statement, MariaDB's `column:A|D` list. */
async function indexDefinition(knex: Knex, name: string): Promise<string> {
  const client = clientOf(knex);
  if (client === 'sqlite') return ((await knex.raw(`SELECT sql FROM sqlite_master WHERE name = ?`, [name])) as { sql: string }[])[0]!.sql;
  if (client === 'postgres') return (await knex.raw<{ rows: { indexdef: string }[] }>(`SELECT indexdef FROM pg_indexes WHERE indexname = ?`, [name])).rows[0]!.indexdef;
  const [rows] = (await knex.raw(`SELECT column_name AS "column", collation AS "direction" FROM information_schema.statistics WHERE table_schema = DATABASE() AND index_name = ? ORDER BY seq_in_index`, [name])) as [{ column: string; direction: string }[]];
  return rows.map((row) => `${row.column}:${row.direction}`).join(',');
}

/** q10 (`sort=views:desc`, title and views) as the public role reads it. */
async function planQ10(registry: Registry, root: string): Promise<RootQuery> {
  const permissions = (await loadPermissions(join(root, 'permissions.yaml'), 'permissions.yaml', registry))!;
  return planRestRead(
    { registry, limits: { defaultLimit: 25, maxLimit: 100, withCount: true }, permissions },
    { model: registry.routes.get('articles')!, action: 'find', id: null, querystring: 'sort[0]=views:desc&fields[0]=title&fields[1]=views', role: 'public' },
  );
}

async function indexNames(knex: Knex, table: string): Promise<string[]> {
  return [...((await inspectDatabase(knex)).get(table)?.indexes ?? [])].sort();
}

describe('storage: indexes declared by schema files', function () {
  this.timeout(120_000);
  let folder: ScratchFolder;
  let plain: Registry;
  let indexed: Registry;
  let indexedRoot: string;
  before(async () => {
    folder = createScratchFolder();
    plain = await loadSchema(writeSchema(folder, 'plain', () => {}));
    indexedRoot = writeSchema(folder, 'indexed', declareIndexes);
    indexed = await loadSchema(indexedRoot);
  });
  after(() => folder.remove());

  it('names each declared index like Strapi, over the columns in order', () => {
    expect(indexed.routes.get('articles')!.indexes).to.deep.equal([
      { name: 'articles_views_index', attributes: ['views'], columns: ['views'], descending: [false] },
      { name: 'articles_kind_published_at_index', attributes: ['kind', 'publishedAt'], columns: ['kind', 'published_at'], descending: [false, false] },
      { name: 'articles_by_rating', attributes: ['rating', 'id'], columns: ['rating', 'id'], descending: [false, false] },
    ]);
    expect(indexed.models.get('shared.seo')!.indexes).to.deep.equal([
      { name: 'components_shared_seos_meta_title_index', attributes: ['metaTitle'], columns: ['meta_title'], descending: [false] },
    ]);
  });

  it('a key written `views:desc` is descending, and names the index apart from an ascending one', async () => {
    const registry = await loadSchema(
      writeSchema(folder, 'descending', (article) => {
        article.indexes = [{ attributes: ['views:desc'] }, { attributes: ['views:asc'] }, { attributes: ['kind', 'publishedAt:desc'] }];
      }),
    );
    expect(registry.routes.get('articles')!.indexes).to.deep.equal([
      { name: 'articles_views_desc_index', attributes: ['views'], columns: ['views'], descending: [true] },
      { name: 'articles_views_index', attributes: ['views'], columns: ['views'], descending: [false] },
      { name: 'articles_kind_published_at_desc_index', attributes: ['kind', 'publishedAt'], columns: ['kind', 'published_at'], descending: [false, true] },
    ]);
  });

  for (const kind of testDatabaseKinds()) {
    describe(`on ${kind.name}`, () => {
      let database: TestDatabase;
      beforeEach(async () => {
        database = await createTestDatabase(kind.client);
      });
      afterEach(() => database?.drop());

      it('sync creates them marked, with new tables and on existing ones; a second sync is a no-op', async () => {
        const { knex } = database;
        const name = (index: string) => storedName(clientOf(knex), index);
        await syncSchema(knex, plain);
        expect(await declaredIn(knex, 'articles')).to.deep.equal({});
        const changes = await syncSchema(knex, indexed);
        expect(changes).to.deep.equal([
          { kind: 'index', table: 'articles', name: 'articles_views_index' },
          { kind: 'index', table: 'articles', name: 'articles_kind_published_at_index' },
          { kind: 'index', table: 'articles', name: 'articles_by_rating' },
          { kind: 'index', table: 'components_shared_seos', name: 'components_shared_seos_meta_title_index' },
        ]);
        expect(await declaredIn(knex, 'articles')).to.deep.equal({
          [name('articles_views_index')]: 'views',
          [name('articles_kind_published_at_index')]: 'kind,published_at',
          [name('articles_by_rating')]: 'rating,id',
        });
        expect(await syncSchema(knex, indexed)).to.deep.equal([]);
        if (kind.client === 'postgres') {
          // In the API's sort order: NULL first, strings by code point.
          const { rows } = await knex.raw<{ rows: { indexdef: string }[] }>(`SELECT indexdef FROM pg_indexes WHERE indexname = 'articles_kind_published_at_index'`);
          expect(rows[0]!.indexdef).to.match(/\(kind COLLATE "C" NULLS FIRST, published_at NULLS FIRST\)$/);
        }

        // Made with the tables of an empty database, the same indexes.
        const fresh = await createTestDatabase(kind.client);
        try {
          await syncSchema(fresh.knex, indexed);
          expect(await declaredIn(fresh.knex, 'articles')).to.deep.equal(await declaredIn(knex, 'articles'));
          expect(await declaredIn(fresh.knex, 'components_shared_seos')).to.deep.equal({ [name('components_shared_seos_meta_title_index')]: 'meta_title' });
          expect(await syncSchema(fresh.knex, indexed)).to.deep.equal([]);
        } finally {
          await fresh.drop();
        }
      });

      it("a removed or changed declaration drops or remakes only sync's own index", async () => {
        const { knex } = database;
        await syncSchema(knex, indexed);
        // An index added by hand, named as sync would name one: not sync's, never dropped.
        await knex.schema.alterTable('articles', (table) => table.index(['rating'], 'articles_rating_index'));
        const before = await indexNames(knex, 'articles');
        const changed = await loadSchema(
          writeSchema(folder, `changed-${kind.name}`, (article, seo) => {
            declareIndexes(article, seo);
            delete article.attributes.views.index;
            article.indexes = [{ attributes: ['kind', 'publishedAt'] }, { name: 'articles_by_rating', attributes: ['rating', 'views'] }];
          }),
        );
        expect(await syncSchema(knex, changed)).to.deep.equal([
          { kind: 'droppedIndex', table: 'articles', name: 'articles_by_rating' },
          { kind: 'droppedIndex', table: 'articles', name: 'articles_views_index' },
          { kind: 'index', table: 'articles', name: 'articles_by_rating' },
        ]);
        expect(await indexNames(knex, 'articles')).to.deep.equal(before.filter((index) => index !== storedName(clientOf(knex), 'articles_views_index')));
        expect((await declaredIn(knex, 'articles'))['articles_by_rating']).to.equal('rating,views');
        expect(await syncSchema(knex, changed)).to.deep.equal([]);

        // Back to Strapi's layout: the declared ones go, Strapi's, the API's and the hand-made one stay.
        await syncSchema(knex, plain);
        expect(await declaredIn(knex, 'articles')).to.deep.equal({});
        expect(await declaredIn(knex, 'components_shared_seos')).to.deep.equal({});
        expect(await indexNames(knex, 'articles')).to.include.members(['articles_slug_unique', 'articles_created_by_id_fk', 'articles_locale_published_at_index', 'articles_rating_index']);
      });

      it('a default name over 63 bytes is cut on PostgreSQL, shortened with a hash on MariaDB, and synced once', async () => {
        const { knex } = database;
        const long = await loadSchema(
          writeSchema(folder, `long-${kind.name}`, (article) => {
            article.indexes = [{ attributes: ['publishDate', 'publishTime', 'scheduledAt', 'viewsTotal'] }];
          }),
        );
        const name = 'articles_publish_date_publish_time_scheduled_at_views_total_index';
        expect(name.length).to.equal(65);
        await syncSchema(knex, plain);
        expect(await syncSchema(knex, long)).to.deep.equal([{ kind: 'index', table: 'articles', name }]);
        const stored = storedName(clientOf(knex), name);
        expect(stored.length).to.equal(kind.client === 'sqlite' ? 65 : kind.client === 'postgres' ? 63 : 64);
        expect(await declaredIn(knex, 'articles')).to.deep.equal({ [stored]: 'publish_date,publish_time,scheduled_at,views_total' });
        expect(await syncSchema(knex, long)).to.deep.equal([]);
        expect(await findLayoutDifferences(knex, long)).to.deep.equal({ problems: [], warnings: [] });
        expect(await syncSchema(knex, plain)).to.deep.equal([{ kind: 'droppedIndex', table: 'articles', name: stored }]);
      });

      it("makes a descending key descending, marks it so, and remakes the index when a key's direction changes", async () => {
        const { knex } = database;
        const declaring = (name: string, key: string) =>
          loadSchema(
            writeSchema(folder, `${name}-${kind.name}`, (article) => {
              article.indexes = [{ name: 'articles_by_views', attributes: [key, 'rating'] }];
            }),
          );
        const descending = await declaring('descending-key', 'views:desc');
        await syncSchema(knex, plain);
        expect(await syncSchema(knex, descending)).to.deep.equal([{ kind: 'index', table: 'articles', name: 'articles_by_views' }]);
        expect(await declaredIn(knex, 'articles')).to.deep.equal({ articles_by_views: 'views:desc,rating' });
        expect(await syncSchema(knex, descending)).to.deep.equal([]);
        expect(await findLayoutDifferences(knex, descending)).to.deep.equal({ problems: [], warnings: [] });
        const definition = await indexDefinition(knex, 'articles_by_views');
        if (kind.client === 'sqlite') expect(definition).to.match(/\(`views` COLLATE BINARY DESC, `rating` COLLATE BINARY\)$/);
        if (kind.client === 'postgres') expect(definition).to.match(/\(views DESC NULLS LAST, rating NULLS FIRST\)$/);
        if (kind.client === 'mysql') expect(definition).to.equal('views:D,rating:A');
        // A mark naming columns only, as sync wrote before keys had a direction, is an ascending index.
        const ascending = await declaring('ascending-key', 'views');
        expect(await syncSchema(knex, ascending)).to.deep.equal([
          { kind: 'droppedIndex', table: 'articles', name: 'articles_by_views' },
          { kind: 'index', table: 'articles', name: 'articles_by_views' },
        ]);
        expect(await declaredIn(knex, 'articles')).to.deep.equal({ articles_by_views: 'views,rating' });
        expect(await syncSchema(knex, await declaring('ascending-written', 'views:asc'))).to.deep.equal([]);
      });

      it('check --database reports a missing declared index as a warning, a missing column as a problem', async () => {
        const { knex } = database;
        await syncSchema(knex, plain);
        const missing = await findLayoutDifferences(knex, indexed);
        expect(missing.problems).to.deep.equal([]);
        expect(missing.warnings).to.deep.equal([
          'index articles_views_index on articles (views), declared in content-types/article.yaml, is missing; content-api sync creates it',
          'index articles_kind_published_at_index on articles (kind, published_at), declared in content-types/article.yaml, is missing; content-api sync creates it',
          'index articles_by_rating on articles (rating, id), declared in content-types/article.yaml, is missing; content-api sync creates it',
          'index components_shared_seos_meta_title_index on components_shared_seos (meta_title), declared in components/shared/seo.yaml, is missing; content-api sync creates it',
        ]);
        await syncSchema(knex, indexed);
        expect(await findLayoutDifferences(knex, indexed)).to.deep.equal({ problems: [], warnings: [] });
        const stale = await findLayoutDifferences(knex, plain);
        expect(stale.warnings).to.have.length(4);
        expect(stale.warnings[2]).to.match(/^index articles_views_index on articles was made by sync for a declaration that is gone or changed/);
        await knex.schema.alterTable('articles', (table) => table.dropColumn('contact_email'));
        expect((await findLayoutDifferences(knex, indexed)).problems).to.deep.equal(['column articles.contact_email is missing; content-api sync adds it']);
      });
    });
  }

  it('serve --no-sync creates none; check --database warns, exit 0, until sync creates them', async () => {
    const file = join(folder.path, 'no-sync.db');
    const knex = (await import('../../plugin/storage/database.js')).openDatabase(`sqlite:${file}`);
    try {
      await syncSchema(knex, plain);
    } finally {
      await knex.destroy();
    }
    const api = await contentApi({ root: indexedRoot, database: `sqlite:${file}`, sync: false, watchPermissions: false });
    await api.close();
    const checked = await run(process.execPath, [CLI, 'check', '--root', indexedRoot, '--database', `sqlite:${file}`]);
    expect(checked.stdout).to.include('database ok, 4 warnings:\n').and.include(`warning: SQLite database ${file}: index articles_views_index on articles (views)`);
    const synced = await run(process.execPath, [CLI, 'sync', '--root', indexedRoot, '--database', `sqlite:${file}`]);
    expect(synced.stdout).to.include('created index articles_views_index on articles\n').and.include('4 changes\n');
    const clean = await run(process.execPath, [CLI, 'check', '--root', indexedRoot, '--database', `sqlite:${file}`]);
    expect(clean.stdout).to.match(/\ndatabase ok\n$/);
  });

  it("MariaDB reads q10's page (sort=views:desc) from a `views:desc` key, and sorts every row beside an ascending one", async function () {
    if (!mysqlServerUrl()) this.skip();
    const source = (await import('../../plugin/storage/database.js')).openDatabase(`sqlite:${copyFixtureFile('large', folder, 'large-for-mariadb.db')}`);
    const database = await createTestDatabase('mysql');
    const pageStep = async (registry: Registry) => {
      const { entries } = compileRequest(mysqlDialect, await planQ10(registry, indexedRoot));
      const { sql, values } = positionalStatement(entries.sql, entries.values, { forKnex: mysqlDialect });
      const [steps] = (await database.knex.raw(`EXPLAIN ${sql}`, values as Knex.RawBinding[])) as [{ select_type: string; table: string; key: string | null; Extra: string | null }[]];
      return steps.find((step) => step.select_type === 'DERIVED')!;
    };
    try {
      await copyDatabase({ from: source, to: database.knex, registry: plain });
      const ascending = await loadSchema(writeSchema(folder, 'mariadb-ascending', (article) => (article.attributes.views.index = true)));
      await syncSchema(database.knex, ascending);
      expect(await pageStep(ascending)).to.include({ key: null }).and.have.property('Extra').that.includes('Using filesort');
      const descending = await loadSchema(writeSchema(folder, 'mariadb-descending', (article) => (article.indexes = [{ attributes: ['views:desc'] }])));
      await syncSchema(database.knex, descending);
      const step = await pageStep(descending);
      expect(step).to.include({ key: 'articles_views_desc_index' });
      expect(step.Extra ?? '').not.to.include('filesort');
    } finally {
      await source.destroy();
      await database.drop();
    }
  });

  it("SQLite reads q10's page (sort=views:desc) from articles_views_index on a copy of the large fixture", async () => {
    const file = copyFixtureFile('large', folder, 'large.db');
    const knex = (await import('../../plugin/storage/database.js')).openDatabase(`sqlite:${file}`);
    const planOf = async (registry: Registry) => {
      const { entries } = compileRequest(sqliteDialect, await planQ10(registry, indexedRoot));
      const reader = new Database(file, { readonly: true });
      try {
        registerSqlFunctions(reader as unknown as SqliteConnection);
        return (reader.prepare(`EXPLAIN QUERY PLAN ${entries.sql}`).all(sqliteDialect.bindings(entries.values)) as { detail: string }[]).map((step) => step.detail);
      } finally {
        reader.close();
      }
    };
    try {
      await syncSchema(knex, plain);
      expect(await planOf(plain)).to.include('SCAN t').and.not.include('SCAN t USING INDEX articles_views_index');
      await syncSchema(knex, indexed);
      expect(await planOf(indexed)).to.include('SCAN t USING INDEX articles_views_index');
    } finally {
      await knex.destroy();
    }
  });
});
