/**
 * Lists' totals kept while the data is unchanged (sql/sqlite-known-totals.ts): the same list
 * again is built without counting (Server-Timing says `total;desc="known"`) and answers the same
 * bytes; a commit by any other connection (the plugin's own writes, another process) makes the
 * next answer count again, also when it lands between the statement and the check that follows it.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { expect } from 'chai';
import { loadPermissions } from '../../plugin/access/permissions.js';
import { planRestRead } from '../../plugin/http/rest-read.js';
import { compileRequest, type Statement } from '../../plugin/sql/compile.js';
import { sqliteDialect } from '../../plugin/sql/dialect/sqlite.js';
import { SqliteStatements, type SqliteReadConnection } from '../../plugin/sql/sqlite-statements.js';
import { registerSqlFunctions, type SqliteConnection } from '../../plugin/storage/sql-functions.js';
import { serveApi, repoRoot, statementsOf, type ServedApi } from '../support/api.js';
import { copyFixtureFile, createScratchFolder, loadExampleRegistry } from '../storage/fixtures.js';

const LIST = '/api/articles?fields[0]=title&pagination[pageSize]=2';
const totalKnown = (response: { headers: Record<string, string> }) => /total;desc="known"/.test(response.headers['server-timing'] ?? '');
const totalOf = (response: { body: { meta: { pagination: { total: number } } } }) => response.body.meta.pagination.total;

/** A copy of the small fixture of this suite's own: it writes. */
function ownFixture(): { file: string; remove(): void } {
  const folder = createScratchFolder();
  return { file: copyFixtureFile('small', folder), remove: folder.remove };
}

/** One more published English article, written by `run` (a statement on some connection). */
const insertArticle = "INSERT INTO articles (title, locale, published_at, created_at, updated_at) VALUES ('Counted again', 'en', 1700000000000, 1700000000000, 1700000000000)";

describe('SQLite: lists\' totals known while the data is unchanged', function () {
  this.timeout(60_000);
  let fixture: { file: string; remove(): void };
  let served: ServedApi;
  beforeEach(async () => {
    fixture = ownFixture();
    served = await serveApi({ root: repoRoot, database: `sqlite:${fixture.file}`, sync: false });
  });
  afterEach(async () => {
    await served.close();
    fixture.remove();
  });

  /** Requests `path` until a worker answers it with the total known (each read worker keeps its own); the last answer. */
  async function untilKnown(path: string) {
    let response = await served.request.get(path);
    for (let tries = 0; tries < 20 && !totalKnown(response); tries += 1) response = await served.request.get(path);
    return response;
  }

  it('answers the same list again with its total known, the same bytes, in one statement', async () => {
    const first = await served.request.get(LIST);
    expect(first.status).to.equal(200);
    expect(totalKnown(first)).to.equal(false);
    const again = await untilKnown(LIST);
    expect(totalKnown(again), again.headers['server-timing']).to.equal(true);
    expect(statementsOf(again)).to.equal(1);
    expect(again.text).to.equal(first.text);
    expect(again.headers.etag).to.equal(first.headers.etag);
  });

  it('keeps a total per filter value, and shares it between the pages of a list', async () => {
    const food = await untilKnown('/api/articles?filters[category][name][$eq]=Food&fields[0]=title');
    const tech = await untilKnown('/api/articles?filters[category][name][$eq]=Tech&fields[0]=title');
    expect(totalOf(food)).not.to.equal(totalOf(tech));
    const nextPage = await untilKnown(`${LIST}&pagination[page]=2`);
    expect(totalOf(nextPage)).to.equal(totalOf(await served.request.get(LIST)));
  });

  it('counts again after a write of the plugin\'s own connection', async () => {
    const before = totalOf(await untilKnown(LIST));
    await served.api.knex.raw(insertArticle);
    const after = await served.request.get(LIST);
    expect(totalKnown(after)).to.equal(false);
    expect(totalOf(after)).to.equal(before + 1);
    expect(totalOf(await untilKnown(LIST))).to.equal(before + 1);
  });

  it('counts again after a commit of another process', async () => {
    const before = totalOf(await untilKnown(LIST));
    const other = new Database(fixture.file);
    try {
      other.prepare("DELETE FROM articles WHERE id = (SELECT min(id) FROM articles WHERE locale = 'en' AND published_at IS NOT NULL)").run();
    } finally {
      other.close();
    }
    const after = await served.request.get(LIST);
    expect(totalOf(after)).to.equal(before - 1);
  });
});

describe('a known total and a commit in between (SqliteStatements)', () => {
  let fixture: { file: string; remove(): void };
  let reader: Database.Database;
  let writer: Database.Database;
  /** Run once, before or after the next run of a statement whose text includes `includes`. */
  let interruption: { includes: string; when: 'before' | 'after'; run: () => void } | null;
  let statements: SqliteStatements;
  beforeEach(() => {
    fixture = ownFixture();
    reader = new Database(fixture.file);
    reader.pragma('query_only = ON');
    registerSqlFunctions(reader as unknown as SqliteConnection);
    writer = new Database(fixture.file);
    interruption = null;
    // The real connection; the writer may commit just before or after a statement, as another process would then.
    const connection: SqliteReadConnection = {
      prepare: (sql: string) => {
        const prepared = reader.prepare(sql);
        const interrupted = <T extends object>(mode: T): T =>
          new Proxy(mode, {
            get: (target, property) =>
              property === 'all'
                ? (bindings: unknown) => {
                    const now = interruption && sql.includes(interruption.includes) ? interruption : null;
                    if (now) interruption = null;
                    if (now?.when === 'before') now.run();
                    const rows = (target as { all(bindings: unknown): unknown }).all(bindings);
                    if (now?.when === 'after') now.run();
                    return rows;
                  }
                : (Reflect.get(target, property) as () => unknown).bind(target),
          });
        return {
          pluck: (toggle?: boolean) => interrupted(prepared.pluck(toggle)),
          raw: (toggle?: boolean) => interrupted(prepared.raw(toggle)),
        } as unknown as ReturnType<SqliteReadConnection['prepare']>;
      },
    };
    statements = new SqliteStatements(connection, { readOnly: true });
  });
  afterEach(() => {
    reader.close();
    writer.close();
    fixture.remove();
  });

  /** The public role's body statement of LIST. */
  async function listStatement(): Promise<Statement> {
    const registry = await loadExampleRegistry();
    const permissions = (await loadPermissions(join(repoRoot, 'permissions.yaml'), 'permissions.yaml', registry))!;
    const root = planRestRead(
      { registry, limits: { defaultLimit: 25, maxLimit: 100, withCount: true }, permissions },
      { model: registry.routes.get('articles')!, action: 'find', id: null, querystring: LIST.split('?')[1]!, role: 'public' },
    );
    return compileRequest(sqliteDialect, root).body;
  }
  const totalIn = (bytes: Buffer) => (JSON.parse(bytes.toString()) as { meta: { pagination: { total: number } } }).meta.pagination.total;

  it('does not give a total counted before a commit that landed just before the statement', async () => {
    const body = await listStatement();
    const counted = statements.body(body.sql, body.values, Infinity, body.givenTotal);
    expect(statements.body(body.sql, body.values, Infinity, body.givenTotal).totalKnown).to.equal(true);
    // The twin starts after the writer's commit: its entries are newer than the known total.
    interruption = { includes: '@total', when: 'before', run: () => writer.prepare(insertArticle).run() };
    const after = statements.body(body.sql, body.values, Infinity, body.givenTotal);
    expect(after.totalKnown ?? false).to.equal(false);
    expect(totalIn(after.bytes)).to.equal(totalIn(counted.bytes) + 1);
  });

  it('does not give a total counted just before a commit', async () => {
    const body = await listStatement();
    // The writer commits once the count has read the data, before anything reads the version again.
    interruption = { includes: '"counted"', when: 'after', run: () => writer.prepare(insertArticle).run() };
    const counted = statements.body(body.sql, body.values, Infinity, body.givenTotal);
    const next = statements.body(body.sql, body.values, Infinity, body.givenTotal);
    expect(totalIn(next.bytes)).to.equal(totalIn(counted.bytes) + 1);
  });
});
