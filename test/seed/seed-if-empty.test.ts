/**
 * `seedIfEmpty` seeds a database without entries once and never again, leaves a database with
 * entries alone, and seeding is all or nothing: a schema that is not the example's fails with a
 * message naming what is missing, and writes no row.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import type { Knex } from 'knex';
import { seedStockRoles } from '../../plugin/auth/stock-roles.js';
import { loadSchema } from '../../plugin/schema/load.js';
import type { Registry } from '../../plugin/schema/registry.js';
import { existingEntries, formatSummary, seedDemoData, seedIfEmpty } from '../../plugin/seed/seed.js';
import { describeLayout } from '../../plugin/storage/layout.js';
import { syncSchema } from '../../plugin/storage/sync.js';
import { repoRoot } from '../support/api.js';
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from '../support/databases.js';
import { loadExampleSchema } from './seeded.js';

const NOTE_SCHEMA = `kind: collectionType
collectionName: notes
info: { singularName: note, pluralName: notes, displayName: Note }
attributes:
  body: { type: text }
`;

/** The row count of every table of the layout. */
async function tableCounts(knex: Knex, registry: Registry): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of describeLayout(registry).tables) {
    const [row] = await knex(table.name).count({ rows: '*' });
    counts[table.name] = Number(row!.rows);
  }
  return counts;
}

/** A copy of the example schema with `edit` applied to one of its files. */
function editedSchema(folder: string, file: string, edit: (text: string) => string): string {
  for (const part of ['content-types', 'components']) cpSync(join(repoRoot, part), join(folder, part), { recursive: true });
  writeFileSync(join(folder, file), edit(readFileSync(join(folder, file), 'utf8')));
  return folder;
}

describe('demo data: summary', () => {
  it('prints one line per seeded table and a total', () => {
    const lines = formatSummary({ tables: [{ table: 'articles', rows: 32 }, { table: 'up_roles', rows: 1 }], total: 33 });
    expect(lines).to.deep.equal(['  articles  32 rows', '  up_roles  1 row', 'seeded 33 rows in 2 tables']);
  });
});

for (const kind of testDatabaseKinds()) {
  describe(`demo data: seedIfEmpty and failures (${kind.name})`, function () {
    this.timeout(120_000);
    let registry: Registry;
    let database: TestDatabase | undefined;
    let folder: string;
    before(async () => {
      registry = await loadExampleSchema();
    });
    beforeEach(async () => {
      database = await createTestDatabase(kind.client);
      folder = mkdtempSync(join(tmpdir(), 'content-api-seed-schema-'));
    });
    afterEach(async () => {
      await database?.drop();
      rmSync(folder, { recursive: true, force: true });
    });

    it('seeds an empty database once: the second call writes nothing and returns null', async () => {
      const { knex } = database!;
      await syncSchema(knex, registry);
      expect(await existingEntries(knex, registry)).to.deep.equal([]);
      const summary = await seedIfEmpty(knex, registry);
      expect(summary?.total).to.be.greaterThan(1000);
      const counts = await tableCounts(knex, registry);
      expect(await seedIfEmpty(knex, registry)).to.equal(null);
      expect(await tableCounts(knex, registry)).to.deep.equal(counts);
      expect(await existingEntries(knex, registry)).to.deep.include({ table: 'articles', rows: 32 });
    });

    it('leaves a database with a single entry alone', async () => {
      const { knex } = database!;
      await syncSchema(knex, registry);
      await knex('up_roles').insert({ name: 'Public', type: 'public' });
      expect(await seedIfEmpty(knex, registry)).to.equal(null);
      const counts = await tableCounts(knex, registry);
      expect(Object.entries(counts).filter(([, rows]) => rows > 0)).to.deep.equal([['up_roles', 1]]);
    });

    it('seeds a database that holds only the two roles an API serving end users gave it', async () => {
      const { knex } = database!;
      await syncSchema(knex, registry);
      expect(await seedStockRoles(knex, registry, new Date())).to.equal(2);
      expect(await seedStockRoles(knex, registry, new Date())).to.equal(0);
      const summary = await seedIfEmpty(knex, registry);
      expect(summary?.total).to.be.greaterThan(1000);
      // The demo data's own three roles, each type once.
      expect((await knex('up_roles').select('type').orderBy('id')).map((row: { type: string }) => row.type)).to.deep.equal(['authenticated', 'public', 'editor']);
    });

    it('refuses a schema without the example types, before writing', async () => {
      const { knex } = database!;
      mkdirSync(join(folder, 'content-types'));
      writeFileSync(join(folder, 'content-types', 'note.yaml'), NOTE_SCHEMA);
      const notes = await loadSchema(folder);
      await syncSchema(knex, notes);
      const error = await seedDemoData(knex, notes).then(() => null, (caught: Error) => caught);
      expect(error?.message).to.match(/^the demo data is written for the example schema; this schema lacks api::article\.article, api::category\.category, /);
      expect(Object.values(await tableCounts(knex, notes)).every((rows) => rows === 0)).to.equal(true);
    });

    it('rolls everything back when the schema differs in the middle of the data set', async () => {
      const { knex } = database!;
      const root = editedSchema(folder, 'content-types/article.yaml', (text) => text.slice(0, text.indexOf('  blocks:\n')));
      const withoutZone = await loadSchema(root);
      await syncSchema(knex, withoutZone);
      const error = await seedIfEmpty(knex, withoutZone).then(() => null, (caught: Error) => caught);
      expect(error?.message).to.equal('the demo data needs api::article.article.blocks to be a dynamiczone, as in the example schema; the schema does not declare it');
      expect(Object.values(await tableCounts(knex, withoutZone)).every((rows) => rows === 0)).to.equal(true);
    });
  });
}
