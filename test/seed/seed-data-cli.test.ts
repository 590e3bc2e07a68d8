/**
 * `content-api seed --data FILE`: a testing-kit data file loaded into any schema from the command
 * line, as a user runs it (the compiled CLI in a child process).
 */
import type { DatabaseClient } from '../../plugin/storage/database.js';
import { copyFileSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import type { Knex } from 'knex';
import { openDatabase, rawRows } from '../../plugin/storage/database.js';
import { createTestDatabase, testDatabaseKinds } from '../support/databases.js';
import { repoRoot } from '../support/server.js';
import { runCli } from '../support/run-node.js';
import { UPLOADS_DIR } from '../uploads/replay/recorded.js';

const recipes = join(repoRoot, 'examples', 'recipes');
const recipesData = join(recipes, 'test', 'data.yaml');

/** An empty database of `client`; on SQLite a file that does not exist yet. */
async function emptyDatabase(client: DatabaseClient): Promise<{ url: string; exists(): boolean; drop(): Promise<void> }> {
  if (client !== 'sqlite') {
    const database = await createTestDatabase(client);
    return { url: database.url, exists: () => true, drop: () => database.drop() };
  }
  const folder = mkdtempSync(join(tmpdir(), 'content-api-seed-data-'));
  const file = join(folder, 'data', 'dev.db');
  return { url: `sqlite:${file}`, exists: () => existsSync(file), drop: async () => rmSync(folder, { recursive: true, force: true }) };
}

async function withKnex<T>(url: string, work: (knex: Knex) => Promise<T>): Promise<T> {
  const knex = openDatabase(url, { poolSize: 1 });
  try {
    return await work(knex);
  } finally {
    await knex.destroy();
  }
}

/** Nothing was created: no SQLite file, no table in the PostgreSQL schema or the MariaDB database. */
async function expectNoTables(client: DatabaseClient, database: { url: string; exists(): boolean }): Promise<void> {
  if (client === 'sqlite') return void expect(database.exists()).to.equal(false);
  const schema = client === 'postgres' ? 'current_schema()' : 'DATABASE()';
  const rows = await withKnex(database.url, async (knex) =>
    rawRows<{ tables: number | string }>(knex, await knex.raw(`select count(*) as tables from information_schema.tables where table_schema = ${schema}`)),
  );
  expect(Number(rows[0].tables)).to.equal(0);
}

describe('content-api seed --data: usage', function () {
  this.timeout(30_000);

  it('documents --data in its usage', async () => {
    const result = await runCli(['seed', '--help']);
    expect(result.code).to.equal(0);
    expect(result.stdout).to.match(/^usage: content-api seed \[--root DIR\] \[--database URL\] \[--data FILE\]$/m);
    expect(result.stdout).to.match(/^ {2}--data FILE +a data file in the testing kit's format/m);
  });

  it('says what it cannot read', async () => {
    const result = await runCli(['seed', '--root', recipes, '--data', join(tmpdir(), 'no-such-data.yaml'), '--database', 'sqlite::memory:']);
    expect(result.code).to.equal(1);
    expect(result.stderr).to.match(/^content-api seed: cannot read the data file .*no-such-data\.yaml: ENOENT/);
  });
});

for (const kind of testDatabaseKinds()) {
  describe(`content-api seed --data (${kind.name})`, function () {
    this.timeout(60_000);
    let database: Awaited<ReturnType<typeof emptyDatabase>>;
    beforeEach(async () => {
      database = await emptyDatabase(kind.client);
    });
    afterEach(() => database?.drop());

    it('loads a data file into an empty database of any schema, then refuses a second load', async () => {
      const first = await runCli(['seed', '--root', recipes, '--data', recipesData, '--database', database.url]);
      expect(first.code, first.stderr).to.equal(0);
      expect(first.stdout).to.match(/^created the layout \(\d+ changes\)$/m);
      expect(first.stdout).to.match(/^ {2}recipes +3 rows$/m);
      expect(first.stdout).to.match(/^ {2}chefs +2 rows$/m);
      expect(first.stdout.trim().split('\n').at(-1)).to.match(/^seeded \d+ rows in \d+ tables$/);
      const rows = await withKnex(database.url, (knex) => knex('recipes').select('title', 'minutes').orderBy('id'));
      expect(rows.map((row: { title: string; minutes: number | null }) => [row.title, row.minutes])).to.deep.equal([['Tomato soup', 30], ['Soupe à la tomate', null], ['Winter stew', 120]]);
      const second = await runCli(['seed', '--root', recipes, '--data', recipesData, '--database', database.url]);
      expect(second.code).to.equal(1);
      expect(second.stderr).to.equal('content-api seed: the database already has entries (chefs: 2, recipes: 3); seed only fills an empty database\n');
    });

    it('refuses a bad value with file:line:col and writes nothing, not even tables', async () => {
      const folder = mkdtempSync(join(tmpdir(), 'content-api-seed-data-file-'));
      try {
        writeFileSync(join(folder, 'bad.yaml'), 'chef:\n  ana: { name: Ana }\nrecipe:\n  soup: { title: Soup, minutes: four, chef: ana }\n');
        const result = await runCli(['seed', '--root', recipes, '--data', 'bad.yaml', '--database', database.url], folder);
        expect(result.code).to.equal(1);
        expect(result.stderr).to.equal('1 schema problem:\nbad.yaml:4:33 recipe.soup.minutes: minutes must be a `number` type, but the final value was: `NaN` (cast from the value `"four"`).\n');
        expect(result.stdout).to.equal('');
        await expectNoTables(kind.client, database);
      } finally {
        rmSync(folder, { recursive: true, force: true });
      }
    });

    it('uploads the files a data file names by path where serve keeps uploads, and removes them when the load fails', async () => {
      const folder = mkdtempSync(join(tmpdir(), 'content-api-seed-data-files-'));
      const storage = join(folder, 'uploads');
      const env = { ...process.env, UPLOAD_FOLDER: storage };
      try {
        copyFileSync(join(UPLOADS_DIR, 'files', 'photo.jpg'), join(folder, 'photo.jpg'));
        copyFileSync(join(UPLOADS_DIR, 'files', 'notes.txt'), join(folder, 'notes.txt'));
        // The SEO image takes images only: the text file is refused once uploaded, and both files go again.
        writeFileSync(join(folder, 'refused.yaml'), 'article:\n  hello:\n    title: Hello\n    headerImage: { file: ./photo.jpg }\n    seo: { metaTitle: Hi, metaImage: { file: ./notes.txt } }\n');
        const refused = await runCli(['seed', '--root', repoRoot, '--data', 'refused.yaml', '--database', database.url], folder, env);
        expect(refused.code).to.equal(1);
        expect(refused.stderr).to.match(/metaImage takes images; .*notes\.txt is text\/plain/);
        const rows = (knex: Knex, table: string) => knex(table).count({ n: '*' }).then((counted) => Number((counted as { n: number | string }[])[0].n));
        expect(await withKnex(database.url, async (knex) => [await rows(knex, 'files'), await rows(knex, 'articles')])).to.deep.equal([0, 0]);
        expect(readdirSync(storage)).to.deep.equal([]);

        writeFileSync(join(folder, 'data.yaml'), 'article:\n  hello:\n    title: Hello\n    headerImage: { file: ./photo.jpg, alternativeText: The harbour }\n');
        const seeded = await runCli(['seed', '--root', repoRoot, '--data', 'data.yaml', '--database', database.url], folder, env);
        expect(seeded.code, seeded.stderr).to.equal(0);
        expect(seeded.stdout).to.match(/^uploaded 1 file$/m);
        const [file] = await withKnex(database.url, (knex) =>
          knex('files').join('files_related_morphs as m', 'm.file_id', 'files.id').select('files.name', 'files.alternative_text as alt', 'files.hash', 'files.ext', 'm.field'),
        );
        expect(file).to.include({ name: 'photo.jpg', alt: 'The harbour', field: 'headerImage' });
        expect(readdirSync(storage)).to.include(`${file.hash}${file.ext}`);
      } finally {
        rmSync(folder, { recursive: true, force: true });
      }
    });

    it('without --data, refuses a schema that is not the example before creating anything', async () => {
      const result = await runCli(['seed', '--root', recipes, '--database', database.url]);
      expect(result.code).to.equal(1);
      expect(result.stderr).to.match(/^content-api seed: the demo data is written for the example schema; this schema lacks .* \(load a data file of your own with --data FILE\)/);
      expect(result.stdout).to.equal('');
      await expectNoTables(kind.client, database);
    });
  });
}
