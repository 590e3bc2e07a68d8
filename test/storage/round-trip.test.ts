/**
 * `copy` between the three engines, for both fixtures: Strapi's SQLite file copied into every
 * configured server engine in turn (PostgreSQL, then MariaDB, each from the one before: a copy
 * between two servers), then back into a new SQLite file. After every hop the API answers the
 * kit's cases of that fixture exactly as it answers them on Strapi's file, and the last file holds
 * Strapi's rows, value by value.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import type { Knex } from 'knex';
import type { Registry } from '../../plugin/schema/registry.js';
import { copyDatabase } from '../../plugin/storage/copy.js';
import { openDatabase } from '../../plugin/storage/database.js';
import { describeLayout } from '../../plugin/storage/layout.js';
import { serveApi } from '../support/api.js';
import { conformanceKitDir } from '../support/conformance-kit.js';
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from '../support/databases.js';
import { readSqliteRows } from './catalog.js';
import { copyFixtureFile, createScratchFolder, loadExampleRegistry, REPO_ROOT, type FixtureName, type ScratchFolder } from './fixtures.js';

/** The kit's queries recorded on `fixture`, sent with the headers they were recorded with. */
function kitQueries(fixture: FixtureName): { id: string; query: string; headers: Record<string, string> }[] {
  const directory = join(conformanceKitDir(), 'cases', 'public');
  return readdirSync(directory)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => JSON.parse(readFileSync(join(directory, name), 'utf8')))
    .filter((recorded) => (recorded.db ?? 'small') === fixture)
    .map((recorded) => ({ id: recorded.id, query: recorded.query, headers: recorded.headers ?? {} }));
}

/** Every kit query of the fixture answered by the API over `database`: status and parsed body, by case. */
async function answers(database: string, fixture: FixtureName): Promise<Map<string, { status: number; body: unknown }>> {
  const served = await serveApi({ root: REPO_ROOT, database, sync: false });
  try {
    const answered = new Map<string, { status: number; body: unknown }>();
    for (const { id, query, headers } of kitQueries(fixture)) {
      const response = await served.request.get(query).set({ accept: 'application/json', ...headers });
      answered.set(id, { status: response.status, body: response.body });
    }
    return answered;
  } finally {
    await served.close();
  }
}

/** The JSON columns hold values: text may differ in key order and spacing after PostgreSQL's jsonb. */
function readRows(file: string, registry: Registry): Map<string, Record<string, unknown>[]> {
  const tables = new Map<string, Record<string, unknown>[]>();
  for (const table of describeLayout(registry).tables) {
    const json = table.columns.filter((column) => column.type === 'jsonb').map((column) => column.name);
    const rows = readSqliteRows(file, table.name, table.columns.map((column) => column.name));
    for (const row of rows) for (const column of json) if (typeof row[column] === 'string') row[column] = JSON.parse(row[column] as string);
    tables.set(table.name, rows);
  }
  return tables;
}

const servers = testDatabaseKinds().filter((kind) => kind.client !== 'sqlite');

(servers.length ? describe : describe.skip)(`copy round trip: SQLite → ${servers.map((kind) => kind.name).join(' → ')} → SQLite`, function () {
  this.timeout(600_000);
  let registry: Registry;
  let folder: ScratchFolder;
  before(async () => {
    registry = await loadExampleRegistry();
    folder = createScratchFolder();
  });
  after(() => folder?.remove());

  for (const fixture of ['small', 'large'] as const) {
    describe(`strapi-${fixture}.db`, () => {
      const created: TestDatabase[] = [];
      after(async () => {
        for (const database of created) await database.drop();
      });

      it('answers every kit case of the fixture identically after each hop, and ends with the same rows', async () => {
        const original = copyFixtureFile(fixture, folder, `original-${fixture}.db`);
        const expected = await answers(`sqlite:${original}`, fixture);
        expect(expected.size).to.be.above(fixture === 'small' ? 100 : 5);
        let from: Knex = openDatabase(`sqlite:${original}`);
        try {
          const hop = async (to: Knex, url: string, name: string) => {
            await copyDatabase({ from, to, registry });
            const got = await answers(url, fixture);
            for (const [id, answer] of expected) expect(got.get(id), `${id} after the copy to ${name}`).to.deep.equal(answer);
          };
          for (const kind of servers) {
            const target = await createTestDatabase(kind.client);
            created.push(target);
            await hop(target.knex, target.url, kind.name);
            await from.destroy();
            from = openDatabase(target.url);
          }
          const back = join(folder.path, `back-${fixture}.db`);
          const last = openDatabase(`sqlite:${back}`);
          try {
            await hop(last, `sqlite:${back}`, 'SQLite');
          } finally {
            await last.destroy();
          }
          const rows = readRows(back, registry);
          for (const [table, list] of readRows(original, registry)) expect(rows.get(table), table).to.deep.equal(list);
        } finally {
          await from.destroy();
        }
      });
    });
  }
});
