/**
 * After `copy` (and after `sync` adds an index) PostgreSQL tables are vacuumed and analyzed: a
 * list's count is then read from the `(locale, published_at)` index alone, not from the table.
 */
import { expect } from 'chai';
import pg from 'pg';
import { loadPermissions } from '../../plugin/access/permissions.js';
import { planRead } from '../../plugin/read.js';
import { loadSchema } from '../../plugin/schema/load.js';
import { compileCount } from '../../plugin/sql/compile.js';
import { postgresDialect } from '../../plugin/sql/dialect/postgres.js';
import { fixtureDatabase, repoRoot } from '../support/api.js';
import { postgresServerUrl } from '../support/databases.js';

(postgresServerUrl() ? describe : describe.skip)('VACUUM ANALYZE after copy (postgres, large fixture)', function () {
  this.timeout(120_000);

  it('counts the articles of a list with an index-only scan', async () => {
    const registry = await loadSchema(repoRoot);
    const permissions = await loadPermissions(`${repoRoot}/permissions.yaml`, 'permissions.yaml', registry);
    const root = planRead(
      { registry, limits: { defaultLimit: 25, maxLimit: 100, withCount: true }, permissions },
      { model: registry.routes.get('articles')!, action: 'find', id: null, querystring: '', role: 'public' },
    );
    const count = compileCount(postgresDialect, root);
    const client = new pg.Client(await fixtureDatabase('postgres', 'large'));
    await client.connect();
    try {
      const plan = await client.query({ text: `EXPLAIN ${count.sql}`, values: [...count.values] });
      const text = plan.rows.map((row: Record<string, string>) => row['QUERY PLAN']).join('\n');
      expect(text).to.match(/Index Only Scan using articles_locale_published_at_index/);
    } finally {
      await client.end();
    }
  });
});
