/**
 * MariaDB's body statement on the large fixture, run as the executor runs it (a prepared statement
 * on a read session): the body comes as its pieces (Dialect.bodyPieces) with no internal temporary
 * table on disk for a list, the page scans rather than reading most of a table through the locale
 * index, and a filter through one relation starts from the rows it selects (semi-joins, with the
 * histograms `copy` collects) while nested filter hops keep semi-joins off.
 */
import { join } from 'node:path';
import { expect } from 'chai';
import { createConnection, type Connection } from 'mysql2/promise';
import { CLOSED_API, loadPermissions } from '../../plugin/access/permissions.js';
import { PUBLIC_ROLE } from '../../plugin/access/caller.js';
import { matchRoute } from '../../plugin/http/route-match.js';
import { planRead } from '../../plugin/read.js';
import { loadSchema } from '../../plugin/schema/load.js';
import { compileRequest, type Statement } from '../../plugin/sql/compile.js';
import { mysqlDialect } from '../../plugin/sql/dialect/mysql.js';
import { positionalStatement } from '../../plugin/sql/positional.js';
import { mysqlConnectionConfig, mysqlReadSession } from '../../plugin/storage/mysql-session.js';
import { fixtureDatabase, repoRoot } from '../support/api.js';
import { mysqlServerUrl } from '../support/databases.js';

/** The body statement of a public request, as the server compiles it. */
async function bodyStatementOf(path: string): Promise<Statement> {
  const registry = await loadSchema(repoRoot);
  const permissions = (await loadPermissions(join(repoRoot, 'permissions.yaml'), 'permissions.yaml', registry)) ?? CLOSED_API;
  const url = new URL(path, 'http://localhost');
  const route = matchRoute(registry, '/api', url.pathname)!;
  const limits = { defaultLimit: 25, maxLimit: 100, withCount: true };
  const tree = planRead({ registry, permissions, limits }, { ...route, querystring: url.search.slice(1), role: PUBLIC_ROLE });
  return compileRequest(mysqlDialect, tree).body;
}

const FILTERED = '/api/articles?filters[category][name][$eq]=Food&populate=category';
const NESTED = '/api/articles?filters[category][articles][title][$startsWith]=The Quick&fields[0]=title';

describe('MariaDB body statements: what their plans read', () => {
  it('turns semi-joins on for a statement whose filter hops are its own and unnested, and only then', async () => {
    expect((await bodyStatementOf(FILTERED)).sql).to.match(/^SET STATEMENT optimizer_switch = 'semijoin=on' FOR SELECT /);
    expect((await bodyStatementOf(NESTED)).sql).not.to.include('semijoin');
    expect((await bodyStatementOf('/api/categories?populate[articles][filters][category][name][$eq]=Food')).sql).not.to.include('semijoin');
    expect((await bodyStatementOf('/api/articles')).sql).not.to.include('semijoin');
  });

  (mysqlServerUrl() ? describe : describe.skip)('on the large fixture', function () {
    this.timeout(300_000);
    let connection: Connection;
    before(async () => {
      connection = await createConnection(mysqlConnectionConfig(await fixtureDatabase('mysql', 'large'), 10_000));
      await connection.query(mysqlReadSession(60_000));
    });
    after(() => connection?.end());

    /** The statement's pieces and what the session's counters moved by while it ran (prepared, once before). */
    async function run(path: string): Promise<{ pieces: Buffer[]; counters: Map<string, number> }> {
      const statement = await bodyStatementOf(path);
      const { sql, values } = positionalStatement(statement.sql, statement.values);
      await connection.execute({ sql, values: values as never[] });
      await connection.query('FLUSH STATUS');
      const [rows] = await connection.execute({ sql, values: values as never[], rowsAsArray: true });
      const [status] = await connection.query({ sql: "SHOW SESSION STATUS WHERE Variable_name LIKE 'Created_tmp%' OR Variable_name LIKE 'Handler_read%'", rowsAsArray: true });
      const counters = new Map((status as [string, string][]).map(([name, value]) => [name, Number(value)]));
      return { pieces: (rows as [Buffer][]).map(([piece]) => piece), counters };
    }

    for (const path of ['/api/articles', '/api/articles?sort[0]=views:desc&fields[0]=title&fields[1]=views', '/api/articles?locale=all&fields[0]=title&pagination[pageSize]=100']) {
      it(`hands ${path} over as its pieces, without a temporary table on disk`, async () => {
        const { pieces, counters } = await run(path);
        expect(counters.get('Created_tmp_disk_tables')).to.equal(0);
        const pageSize = path.includes('pageSize]=100') ? 100 : 25;
        expect(pieces).to.have.length(pageSize + 3);
        expect(pieces[0]!.toString()).to.equal('{"data":[');
        expect(pieces[1]!.toString()).to.equal('');
        expect(pieces.at(-1)!.toString()).to.match(/^\],"meta":\{"pagination":\{"page":1,"pageSize":\d+,"pageCount":\d+,"total":\d+\}\}\}$/);
        for (const entry of pieces.slice(2, -1)) expect(JSON.parse(entry.toString())).to.have.keys('id', 'attributes');
      });
    }

    it('sorts the page from a scan, not from the locale index (which reads most rows back by id)', async () => {
      const { counters } = await run('/api/articles?sort[0]=views:desc&fields[0]=title&fields[1]=views');
      // The count reads the index (4,000 entries); the page scans the 5,500 rows once.
      expect(counters.get('Handler_read_rnd_next')).to.be.above(5_000);
      expect(counters.get('Handler_read_next')).to.be.below(4_500);
    });

    it('starts a filter through one relation from the rows it selects', async () => {
      const { pieces, counters } = await run(FILTERED);
      expect(pieces.length - 3).to.be.above(0);
      const read = [...counters].filter(([name]) => name.startsWith('Handler_read')).reduce((sum, [, value]) => sum + value, 0);
      // Testing every article against the filter's set reads over 9,000 rows (page and count).
      expect(read).to.be.below(1_500);
    });
  });
});
