/**
 * The layout `sync` creates for the example schema on an empty database is the one Strapi 4.26.2
 * wrote in strapi-small.db for the same app: the same tables, and per table the same columns in
 * the same order, index names and foreign keys — on SQLite, PostgreSQL and MariaDB. On MariaDB
 * the column types and indexes are also compared with the layout Strapi 4.26.2 itself created on
 * MariaDB 10.11 (strapi-mariadb-layout.json, recorded by record-mariadb-layout.mjs). Strapi's
 * tables outside the schema (see OUT_OF_SCOPE_TABLES for why each) are left out of the comparison.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import type { Knex } from 'knex';
import type { Registry } from '../../plugin/schema/registry.js';
import { openDatabase } from '../../plugin/storage/database.js';
import { syncSchema } from '../../plugin/storage/sync.js';
import { describeLayout, queryIndexNames } from '../../plugin/storage/layout.js';
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from '../support/databases.js';
import { isInScope, readColumns, readColumnTypes, readForeignKeys, readIndexes, type CatalogForeignKey } from './catalog.js';
import { copyFixtureFile, createScratchFolder, loadExampleRegistry, REPO_ROOT, type ScratchFolder } from './fixtures.js';

/** What Strapi 4.26.2 created on an empty MariaDB 10.11 database for the kit's app (in-scope tables). */
interface RecordedMariadbLayout {
  columns: Record<string, string[]>;
  types: Record<string, string>;
  indexes: string[];
  foreignKeys: Record<string, CatalogForeignKey[]>;
}

function readRecordedMariadbLayout(): RecordedMariadbLayout {
  return JSON.parse(readFileSync(join(REPO_ROOT, 'test', 'storage', 'strapi-mariadb-layout.json'), 'utf8'));
}

interface StrapiCatalog {
  columns: Map<string, string[]>;
  types: Map<string, string>;
  indexes: string[];
  foreignKeys: Map<string, CatalogForeignKey[]>;
}

/** The catalog of the tables of strapi-small.db that the schema owns. */
async function readStrapiCatalog(knex: Knex): Promise<StrapiCatalog> {
  const columns = new Map([...(await readColumns(knex))].filter(([table]) => isInScope(table)));
  const foreignKeys = new Map<string, CatalogForeignKey[]>();
  for (const [table, keys] of await readForeignKeys(knex)) {
    // created_by_id/updated_by_id point at admin_users, which is out of scope.
    const kept = keys.filter((key) => key.references !== 'admin_users');
    if (isInScope(table) && kept.length) foreignKeys.set(table, kept);
  }
  const types = new Map([...(await readColumnTypes(knex))].filter(([column]) => isInScope(column.split('.')[0])));
  return { columns, types, indexes: await readIndexes(knex), foreignKeys };
}

/** One column of each kind, with the type knex gives it for Strapi's column definition. */
const POSTGRES_TYPES: readonly [string, string][] = [
  ['articles.id', 'integer not null'],
  ['articles.title', 'character varying(255)'],
  ['articles.slug', 'character varying(255)'],
  ['articles.kind', 'character varying(255)'],
  ['articles.contact_email', 'character varying(255)'],
  ['articles.access_code', 'character varying(255)'],
  ['articles.description', 'text'],
  ['articles.content', 'text'],
  ['articles.publish_date', 'date'],
  ['articles.publish_time', 'time(3) without time zone'],
  ['articles.scheduled_at', 'timestamp(6) without time zone'],
  ['articles.created_at', 'timestamp(6) without time zone'],
  ['articles.published_at', 'timestamp(6) without time zone'],
  ['articles.views', 'integer'],
  ['articles.views_total', 'bigint'],
  ['articles.rating', 'double precision'],
  ['articles.price', 'numeric(10,2)'],
  ['articles.featured', 'boolean'],
  ['articles.metadata', 'jsonb'],
  ['articles.created_by_id', 'integer'],
  ['files.size', 'numeric(10,2)'],
  ['files.formats', 'jsonb'],
  ['articles_categories_links.article_id', 'integer'],
  ['articles_categories_links.category_order', 'double precision'],
  ['articles_components.order', 'double precision'],
  ['articles_components.component_type', 'character varying(255)'],
  ['files_related_morphs.related_type', 'character varying(255)'],
];

describe('storage layout: Strapi v4 tables, columns, indexes and foreign keys', function () {
  this.timeout(60_000);
  let registry: Registry;
  let strapi: StrapiCatalog;
  let folder: ScratchFolder;

  before(async () => {
    registry = await loadExampleRegistry();
    folder = createScratchFolder();
    const knex = openDatabase(`sqlite:${copyFixtureFile('small', folder)}`);
    try {
      strapi = await readStrapiCatalog(knex);
    } finally {
      await knex.destroy();
    }
  });
  after(() => folder.remove());

  it('reads the fixture: the schema owns 32 of its tables', () => {
    expect(strapi.columns.size).to.equal(32);
    expect(strapi.columns.get('articles')).to.include.members(['views_total', 'locale', 'published_at']);
    expect(strapi.foreignKeys.get('articles_categories_links')).to.have.length(2);
    expect(strapi.indexes).to.include('articles_slug_unique unique (slug)');
    expect(strapi.types.get('articles.scheduled_at')).to.equal('datetime');
  });

  for (const kind of testDatabaseKinds()) {
    describe(`sync on an empty database (${kind.name})`, () => {
      let database: TestDatabase;
      before(async () => {
        database = await createTestDatabase(kind.client);
        await syncSchema(database.knex, registry);
      });
      after(() => database?.drop());

      it("creates exactly Strapi's tables for the schema", async () => {
        const tables = [...(await readColumns(database.knex)).keys()].sort();
        expect(tables).to.deep.equal([...strapi.columns.keys()].sort());
      });

      it("gives every table exactly Strapi's columns, in Strapi's order", async () => {
        const columns = await readColumns(database.knex);
        for (const [table, expected] of strapi.columns) {
          expect(columns.get(table), table).to.deep.equal(expected);
        }
      });

      it("creates Strapi's foreign keys between the schema's tables, cascading on delete", async () => {
        const foreignKeys = await readForeignKeys(database.knex);
        expect(Object.fromEntries(foreignKeys)).to.deep.equal(Object.fromEntries(strapi.foreignKeys));
      });

      if (kind.client === 'sqlite') {
        it("declares every column with Strapi's SQLite type, nullable but the id", async () => {
          const types = [...(await readColumnTypes(database.knex))].filter(([column]) => isInScope(column.split('.')[0]));
          expect(Object.fromEntries(types)).to.deep.equal(Object.fromEntries(strapi.types));
        });

        it("names every index as Strapi does, on Strapi's columns, plus the API's query indexes", async () => {
          const added = queryIndexNames(describeLayout(registry));
          expect(added).to.deep.equal(['articles_locale_published_at_index', 'articles_id_locale_published_at_index']);
          const indexes = await readIndexes(database.knex);
          expect(indexes.filter((entry) => !added.includes(entry.split(' ')[0]))).to.deep.equal(strapi.indexes);
          expect(indexes).to.include('articles_locale_published_at_index (locale,published_at)');
          expect(indexes).to.include('articles_id_locale_published_at_index (id,locale,published_at)');
        });
      } else if (kind.client === 'mysql') {
        it("declares every column with the type Strapi gives it on MariaDB, nullable but the id", async () => {
          const recorded = readRecordedMariadbLayout();
          expect(Object.fromEntries(Object.entries(recorded.columns).sort())).to.deep.equal(Object.fromEntries([...strapi.columns].sort()));
          const types = [...(await readColumnTypes(database.knex))].filter(([column]) => isInScope(column.split('.')[0]));
          const differing = types.filter(([column, type]) => recorded.types[column] !== type).map(([column, type]) => `${column}: ${type}, Strapi ${recorded.types[column]}`);
          expect(differing).to.deep.equal([]);
          expect(types.length).to.equal(Object.keys(recorded.types).length);
        });

        it("names every index as Strapi does on MariaDB, on Strapi's columns, plus the API's query indexes", async () => {
          const recorded = readRecordedMariadbLayout().indexes;
          const added = queryIndexNames(describeLayout(registry));
          const indexes = await readIndexes(database.knex);
          expect(indexes.filter((entry) => !added.includes(entry.split(' ')[0]))).to.deep.equal(recorded);
          expect(indexes).to.include('articles_locale_published_at_index (locale,published_at)');
        });

        it("creates the foreign keys Strapi creates on MariaDB between the schema's tables", async () => {
          const recorded = Object.entries(readRecordedMariadbLayout().foreignKeys)
            .map(([table, keys]) => [table, keys.filter((key) => key.references !== 'admin_users')] as const)
            .filter(([, keys]) => keys.length);
          expect(Object.fromEntries(await readForeignKeys(database.knex))).to.deep.equal(Object.fromEntries(recorded));
        });
      } else {
        it("uses Strapi's PostgreSQL column types, nullable but the id", async () => {
          const types = await readColumnTypes(database.knex);
          expect(Object.fromEntries(POSTGRES_TYPES.map(([column]) => [column, types.get(column)]))).to.deep.equal(Object.fromEntries(POSTGRES_TYPES));
          const notNull = [...types].filter(([, type]) => type.endsWith(' not null')).map(([column]) => column);
          expect(notNull.sort()).to.deep.equal([...strapi.columns.keys()].map((table) => `${table}.id`).sort());
        });

        it("names every index as Strapi does (plus PostgreSQL's primary keys and the API's query indexes)", async () => {
          const names = strapi.indexes.map((index) => index.split(' ')[0]);
          const primaryKeys = [...strapi.columns.keys()].map((table) => `${table}_pkey`);
          const added = queryIndexNames(describeLayout(registry));
          expect(await readIndexes(database.knex)).to.deep.equal([...names, ...primaryKeys, ...added].sort());
        });
      }
    });
  }
});
