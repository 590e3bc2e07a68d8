/**
 * The plugin's PostgreSQL connections run prepared statements with generic plans, which cannot
 * see the page's LIMIT (a parameter): the page's rows must still be looked up one by one, never
 * found by hash-joining the page with a sequential scan of the whole table.
 */
import { expect } from 'chai';
import pg from 'pg';
import { loadPermissions } from '../../plugin/access/permissions.js';
import { planRestRead } from '../../plugin/http/rest-read.js';
import { loadSchema } from '../../plugin/schema/load.js';
import { compileRequest } from '../../plugin/sql/compile.js';
import { postgresDialect } from '../../plugin/sql/dialect/postgres.js';
import { POSTGRES_SESSION } from '../../plugin/storage/postgres-session.js';
import { fixtureDatabase, repoRoot } from '../support/api.js';
import { postgresServerUrl } from '../support/databases.js';

(postgresServerUrl() ? describe : describe.skip)('generic plans of a list (postgres, large fixture)', function () {
  this.timeout(120_000);

  /** EXPLAIN of the public role's entries statement for `querystring`, as a prepared statement with a generic plan. */
  const genericPlan = async (route: string, querystring: string): Promise<string> => {
    const registry = await loadSchema(repoRoot);
    const permissions = (await loadPermissions(`${repoRoot}/permissions.yaml`, 'permissions.yaml', registry))!;
    const root = planRestRead(
      { registry, limits: { defaultLimit: 25, maxLimit: 100, withCount: true }, permissions },
      { model: registry.routes.get(route)!, action: 'find', id: null, querystring, role: 'public' },
    );
    const { sql, values } = compileRequest(postgresDialect, root).entries;
    const client = new pg.Client(await fixtureDatabase('postgres', 'large'));
    await client.connect();
    try {
      await client.query(POSTGRES_SESSION);
      // Prepared once through the protocol to learn the parameters' types, then by name in SQL to EXPLAIN its EXECUTE.
      await client.query({ name: 'entries', text: sql, values: [...values] });
      const { rows } = await client.query<{ types: string[] }>("SELECT parameter_types::text[] AS types FROM pg_prepared_statements WHERE name = 'entries'");
      await client.query(`PREPARE listed(${rows[0]!.types.join(', ')}) AS ${sql}`);
      const literals = values.map((value) => (typeof value === 'number' ? String(value) : client.escapeLiteral(String(value))));
      const explained = await client.query(`EXPLAIN EXECUTE listed(${literals.join(', ')})`);
      return explained.rows.map((row: Record<string, string>) => row['QUERY PLAN']).join('\n');
    } finally {
      await client.end();
    }
  };

  /** The plan's lines that scan the whole articles table. */
  const articleScans = (plan: string) => plan.split('\n').filter((line) => /Seq Scan on articles\b/.test(line));
  /** The plan's first join: the page's with its rows. */
  const firstJoin = (plan: string) => plan.split('\n').find((line) => /Join|Nested Loop/.test(line));

  it("looks each row of a page up by id, without scanning the table", async () => {
    const plan = await genericPlan('articles', '');
    expect(firstJoin(plan), plan).to.match(/Nested Loop/);
    expect(articleScans(plan), plan).to.deep.equal([]);
  });

  it('scans the table once for a sort by an unindexed field, and looks the page up by id', async () => {
    const plan = await genericPlan('articles', 'sort[0]=views:desc&fields[0]=title');
    expect(firstJoin(plan), plan).to.match(/Nested Loop/);
    expect(articleScans(plan), plan).to.have.length(1);
  });

  it('joins the page of another type with its rows row by row, populated', async () => {
    expect(firstJoin(await genericPlan('categories', 'populate=*'))).to.match(/Nested Loop/);
  });
});
