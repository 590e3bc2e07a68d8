/**
 * After `copy` (and after `sync` adds an index) PostgreSQL tables are vacuumed and analyzed: a
 * list's count is then read from the `(locale, published_at)` index alone, not from the table,
 * and the rows a page skips from the `(id, locale, published_at)` index.
 */
import { expect } from 'chai';
import pg from 'pg';
import { loadPermissions } from '../../plugin/access/permissions.js';
import { planRestRead } from '../../plugin/http/rest-read.js';
import type { RootQuery } from '../../plugin/query/tree.js';
import { loadSchema } from '../../plugin/schema/load.js';
import { compileCount, compileRequest, type Statement } from '../../plugin/sql/compile.js';
import { postgresDialect } from '../../plugin/sql/dialect/postgres.js';
import { fixtureDatabase, repoRoot } from '../support/api.js';
import { postgresServerUrl } from '../support/databases.js';

(postgresServerUrl() ? describe : describe.skip)('VACUUM ANALYZE after copy (postgres, large fixture)', function () {
  this.timeout(120_000);

  const plan = async (querystring: string, statement: (root: RootQuery) => Statement): Promise<string> => {
    const registry = await loadSchema(repoRoot);
    const permissions = (await loadPermissions(`${repoRoot}/permissions.yaml`, 'permissions.yaml', registry))!;
    const root = planRestRead(
      { registry, limits: { defaultLimit: 25, maxLimit: 100, withCount: true }, permissions },
      { model: registry.routes.get('articles')!, action: 'find', id: null, querystring, role: 'public' },
    );
    const { sql, values } = statement(root);
    const client = new pg.Client(await fixtureDatabase('postgres', 'large'));
    await client.connect();
    try {
      const explained = await client.query({ text: `EXPLAIN ${sql}`, values: [...values] });
      return explained.rows.map((row: Record<string, string>) => row['QUERY PLAN']).join('\n');
    } finally {
      await client.end();
    }
  };

  it('counts the articles of a list with an index-only scan', async () => {
    expect(await plan('', (root) => compileCount(postgresDialect, root))).to.match(/Index Only Scan using articles_locale_published_at_index/);
  });

  it('skips the rows before a deep page with an index-only scan', async () => {
    const entries = (root: RootQuery) => compileRequest(postgresDialect, root).entries;
    expect(await plan('pagination[page]=150', entries)).to.match(/Index Only Scan using articles_id_locale_published_at_index/);
  });
});
