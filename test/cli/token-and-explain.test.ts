/**
 * `content-api token create|list|revoke` and `content-api explain`, run as a user runs them, and
 * an API token created by the first one used against the API. The token commands change only the
 * entry they add or remove in permissions.yaml: the rest of the file stays byte for byte.
 */
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { cliPath } from '../support/server.js';
import { fixtureDatabase, repoRoot, serveApi, type ServedApi } from '../support/api.js';

const run = promisify(execFile);

async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [cliPath, ...args]);
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe('content-api token create', function () {
  let root: string;
  let served: ServedApi | undefined;
  before(() => {
    root = mkdtempSync(join(tmpdir(), 'content-api-token-'));
    for (const entry of ['content-types', 'components', 'permissions.yaml']) cpSync(join(repoRoot, entry), join(root, entry), { recursive: true });
  });
  after(async () => {
    await served?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('prints a token once and stores only its salted hash, leaving the rest of the file as it was', async () => {
    const before = readFileSync(join(root, 'permissions.yaml'), 'utf8');
    const { code, stdout } = await cli(['token', 'create', '--root', root, '--role', 'editor', '--name', 'ci']);
    expect(code).to.equal(0);
    const token = stdout.trim();
    expect(token).to.match(/^cat_[A-Za-z0-9_-]{40,}$/);
    const permissions = readFileSync(join(root, 'permissions.yaml'), 'utf8');
    expect(permissions).to.not.include(token);
    // One line added, in the style of the entry before it.
    expect(permissions.startsWith(before), permissions).to.equal(true);
    expect(permissions.slice(before.length)).to.match(/^ {2}- \{ name: ci, role: editor, hash: sha256:[A-Za-z0-9_-]{16,}:[0-9a-f]{64} \}\n$/);

    served = await serveApi({ root, database: await fixtureDatabase('sqlite'), sync: false });
    const preview = () => served!.request.get('/api/articles?publicationState=preview&fields[0]=title');
    expect((await preview()).status, 'public may not preview').to.equal(403);
    expect((await preview().set('Authorization', `Bearer ${token}`)).status).to.equal(200);
    const wrong = await preview().set('Authorization', `Bearer ${token}x`);
    expect(wrong.status).to.equal(401);
    expect(wrong.body.error.name).to.equal('UnauthorizedError');
    expect((await preview().set('Authorization', 'Basic abc')).status, 'other schemes read as public').to.equal(403);
  });

  it('refuses an unknown role, a duplicate name and missing options', async () => {
    expect((await cli(['token', 'create', '--root', root, '--role', 'nobody', '--name', 'x'])).code).to.equal(1);
    expect((await cli(['token', 'create', '--root', root, '--role', 'editor', '--name', 'ci'])).code).to.equal(1);
    expect((await cli(['token', 'create', '--root', root, '--role', 'editor'])).code).to.equal(2);
  });

  it('a token past its --expires date is a 401', async () => {
    const { code, stdout } = await cli(['token', 'create', '--root', root, '--role', 'editor', '--name', 'old', '--expires', '2100-01-01T00:00:00Z']);
    expect(code).to.equal(0);
    const later = await serveApi({ root, database: await fixtureDatabase('sqlite'), sync: false, now: () => Date.parse('2100-01-01T00:00:01Z') });
    try {
      const response = await later.request.get('/api/articles').set('Authorization', `Bearer ${stdout.trim()}`);
      expect(response.status).to.equal(401);
    } finally {
      await later.close();
    }
  });

  it('refuses an --expires date in the past, or one that is not a date, with exit 2 and the file untouched', async () => {
    const before = readFileSync(join(root, 'permissions.yaml'), 'utf8');
    const past = await cli(['token', 'create', '--root', root, '--role', 'editor', '--name', 'past', '--expires', '2020-01-01']);
    expect(past.code).to.equal(2);
    expect(past.stderr).to.match(/--expires 2020-01-01 is in the past/);
    for (const invalid of ['2027-02-30', 'next week', '2027-13-01', '2027-01-01T25:00:00Z', '1']) {
      const result = await cli(['token', 'create', '--root', root, '--role', 'editor', '--name', 'bad', '--expires', invalid]);
      expect(result.code, invalid).to.equal(2);
      expect(result.stderr, invalid).to.include(`invalid --expires "${invalid}": expected an ISO-8601 date`);
    }
    expect(readFileSync(join(root, 'permissions.yaml'), 'utf8')).to.equal(before);
  });
});

/** A hand-written permissions.yaml: flow lists without padding, comments, blank lines, quotes. */
const HAND_WRITTEN = `# roles first
roles:
  public:
    article: [find, findOne]   # the list
    category: ['find']

  editor:
    article: [find,findOne, preview]
tokens:
  # the CI token
  - { name: ci, role: editor, hash: "sha256:aaaaaaaaaaaaaaaa:${'a'.repeat(64)}", expiresAt: 2099-01-01T00:00:00Z }
  - name: deploy
    role: public
    hash: 'sha256:bbbbbbbbbbbbbbbb:${'b'.repeat(64)}'

# the end
`;

describe('content-api token on a hand-written permissions.yaml', () => {
  let root: string;
  let file: string;
  before(() => {
    root = mkdtempSync(join(tmpdir(), 'content-api-token-yaml-'));
    for (const entry of ['content-types', 'components']) cpSync(join(repoRoot, entry), join(root, entry), { recursive: true });
    file = join(root, 'permissions.yaml');
  });
  beforeEach(() => writeFileSync(file, HAND_WRITTEN));
  after(() => rmSync(root, { recursive: true, force: true }));

  it('create adds the entry after the last one and changes nothing else', async () => {
    const result = await cli(['token', 'create', '--root', root, '--role', 'public', '--name', 'web', '--expires', '2099-06-01']);
    expect(result.code, result.stderr).to.equal(0);
    const after = readFileSync(file, 'utf8');
    const at = HAND_WRITTEN.indexOf('\n# the end');
    expect(after.slice(0, at)).to.equal(HAND_WRITTEN.slice(0, at));
    expect(after.slice(-'\n# the end\n'.length)).to.equal('\n# the end\n');
    expect(after.slice(at, -'\n# the end\n'.length)).to.match(/^ {2}- name: web\n {4}role: public\n {4}hash: sha256:\S+\n {4}expiresAt: 2099-06-01T00:00:00.000Z\n$/);
  });

  it('revoke removes the entry and changes nothing else; create then revoke gives the file back', async () => {
    expect((await cli(['token', 'revoke', '--root', root, '--name', 'deploy'])).code).to.equal(0);
    expect(readFileSync(file, 'utf8')).to.equal(HAND_WRITTEN.replace(/ {2}- name: deploy\n.*\n.*\n/, ''));
    writeFileSync(file, HAND_WRITTEN);
    expect((await cli(['token', 'revoke', '--root', root, '--name', 'ci'])).code).to.equal(0);
    expect(readFileSync(file, 'utf8')).to.equal(HAND_WRITTEN.replace(/ {2}- \{ name: ci.*\n/, ''));
    writeFileSync(file, HAND_WRITTEN);
    expect((await cli(['token', 'create', '--root', root, '--role', 'editor', '--name', 'temp'])).code).to.equal(0);
    expect((await cli(['token', 'revoke', '--root', root, '--name', 'temp'])).code).to.equal(0);
    expect(readFileSync(file, 'utf8')).to.equal(HAND_WRITTEN);
  });

  it('revoke of the last token leaves `tokens: []`; create then starts the list again', async () => {
    const single = 'roles:\n  public: { article: [find] }\ntokens:\n  - { name: only, role: public, hash: "sha256:cccccccccccccccc:' + 'c'.repeat(64) + '" }\n';
    writeFileSync(file, single);
    expect((await cli(['token', 'revoke', '--root', root, '--name', 'only'])).code).to.equal(0);
    expect(readFileSync(file, 'utf8')).to.equal('roles:\n  public: { article: [find] }\ntokens: []\n');
    expect((await cli(['token', 'create', '--root', root, '--role', 'public', '--name', 'again'])).code).to.equal(0);
    expect(readFileSync(file, 'utf8')).to.match(/^roles:\n {2}public: \{ article: \[find\] \}\ntokens:\n {2}- name: again\n {4}role: public\n {4}hash: sha256:\S+\n$/);
  });

  it('revoke of an unknown name is an error, exit 1, the file untouched', async () => {
    const result = await cli(['token', 'revoke', '--root', root, '--name', 'nobody']);
    expect(result.code).to.equal(1);
    expect(result.stderr).to.include('no token named "nobody"');
    expect(readFileSync(file, 'utf8')).to.equal(HAND_WRITTEN);
    expect((await cli(['token', 'revoke', '--root', root])).code, 'without --name').to.equal(2);
  });

  it('list prints name, role and expiry, never the hash', async () => {
    const result = await cli(['token', 'list', '--root', root]);
    expect(result.code).to.equal(0);
    expect(result.stdout.split('\n')).to.deep.equal(['NAME    ROLE    EXPIRES', 'ci      editor  2099-01-01T00:00:00.000Z', 'deploy  public  never', '']);
    expect(result.stdout).to.not.include('sha256');
    expect(readFileSync(file, 'utf8')).to.equal(HAND_WRITTEN);
  });
});

describe('content-api explain', () => {
  it('prints the one statement of a request, then its entries and count, per dialect', async () => {
    const query = '/api/articles?populate[category][fields][0]=name&filters[title][$contains]=Tips';
    const sqlite = await cli(['explain', '--root', repoRoot, query]);
    expect(sqlite.code).to.equal(0);
    // The count once, then the body that reads it and hands it out; then its twin given a known total.
    expect(sqlite.stdout).to.match(/^-- statement\nWITH "counted" AS MATERIALIZED \(SELECT count\(\*\) AS "total" FROM "articles" t WHERE .*\) SELECT CAST\(CAST\(@p\d+ AS TEXT\) \|\| coalesce\(group_concat\(listed."entry", ','\), ''\)/);
    expect(sqlite.stdout).to.match(/\n-- the statement once its total is known \(.*\)\nSELECT CAST\(.*CAST\(@total AS INTEGER\)/);
    expect(sqlite.stdout).to.include('-- entries (inside the statement)\nSELECT CAST(json_object(');
    expect(sqlite.stdout).to.include('-- count (inside the statement)\nSELECT count(*)');
    // SQLite re-prepares a statement whose LIMIT is bound each run: the page is written in the SQL.
    expect(sqlite.stdout).to.include('LIMIT 25 OFFSET 0');
    expect(sqlite.stdout).to.include('-- parameters: ["en","Tips"]');
    const postgres = await cli(['explain', '--root', repoRoot, '--dialect', 'postgres', query]);
    expect(postgres.stdout).to.include('row_to_json');
    expect(postgres.stdout).to.include('LIMIT $3 OFFSET $4');
    expect(postgres.stdout).to.include('-- parameters: ["en","Tips",25,0,');
  });

  it('writes every row count into SQLite statements: the page, a populate window, a page past 2^53 rows', async () => {
    const query = '/api/articles?populate[categories][start]=1&populate[categories][limit]=2&pagination[page]=9007199254740991&pagination[pageSize]=100';
    const sqlite = await cli(['explain', '--root', repoRoot, query]);
    expect(sqlite.code).to.equal(0);
    expect(sqlite.stdout).to.include('LIMIT 2 OFFSET 1');
    expect(sqlite.stdout).to.include(`LIMIT 100 OFFSET ${Number.MAX_SAFE_INTEGER}`);
    expect(sqlite.stdout).not.to.match(/(LIMIT|OFFSET) @p/);
  });

  it("names the index a sort or a filter on the type's own table lacks, and none once it is declared", async () => {
    const hints = async (root: string, query: string, dialect = 'sqlite') =>
      (await cli(['explain', '--root', root, '--dialect', dialect, query])).stdout.split('\n').filter((line) => line.includes('reads every row'));
    const q10 = '/api/articles?sort[0]=views:desc&fields[0]=title&fields[1]=views';
    for (const dialect of ['sqlite', 'postgres']) {
      expect(await hints(repoRoot, q10, dialect), dialect).to.deep.equal(['-- sort on articles.views reads every row: declare "index: true" on article.views in content-types/article.yaml']);
    }
    // MariaDB reads an index backwards only whole, and ties are broken by id ascending: a descending sort needs a descending key.
    const descendingKey = '-- sort on articles.views reads every row: declare "indexes: [{ attributes: [views:desc] }]" in content-types/article.yaml';
    expect(await hints(repoRoot, q10, 'mysql')).to.deep.equal([descendingKey]);
    expect(await hints(repoRoot, '/api/articles?sort=views', 'mysql')).to.deep.equal(['-- sort on articles.views reads every row: declare "index: true" on article.views in content-types/article.yaml']);
    expect(await hints(repoRoot, '/api/articles?sort=publishedAt:desc&filters[rating][$gte]=4')).to.deep.equal([
      '-- sort on articles.published_at reads every row: declare "indexes: [{ attributes: [publishedAt] }]" in content-types/article.yaml',
      '-- filter on articles.rating reads every row: declare "index: true" on article.rating in content-types/article.yaml',
    ]);
    // Served already: the id, a uid's unique index, a sort through a relation, a findOne, a search by substring.
    for (const query of ['/api/articles?sort=id:desc', '/api/articles?filters[slug][$eq]=a', '/api/articles?sort=category.name', '/api/articles/1?sort=views', '/api/articles?filters[title][$contains]=a']) {
      expect(await hints(repoRoot, query), query).to.deep.equal([]);
    }
    // Strings are compared by code point: PostgreSQL's filters and MariaDB's sorts and filters use no index in the column's collation.
    expect(await hints(repoRoot, '/api/articles?filters[title][$eq]=a', 'postgres')).to.deep.equal([]);
    expect(await hints(repoRoot, '/api/articles?sort=title', 'mysql')).to.deep.equal([]);
    expect(await hints(repoRoot, '/api/articles?sort=title', 'postgres')).to.have.length(1);
    // On PostgreSQL Strapi's unique index on a uid is in the column's collation with NULL last, not the API's sort order: only a declared index serves it there.
    expect(await hints(repoRoot, '/api/articles?sort=slug')).to.deep.equal([]);
    expect(await hints(repoRoot, '/api/articles?sort=slug', 'postgres')).to.deep.equal(['-- sort on articles.slug reads every row: declare "index: true" on article.slug in content-types/article.yaml']);

    const root = mkdtempSync(join(tmpdir(), 'content-api-explain-'));
    try {
      for (const entry of ['content-types', 'components', 'permissions.yaml']) cpSync(join(repoRoot, entry), join(root, entry), { recursive: true });
      const file = join(root, 'content-types', 'article.yaml');
      writeFileSync(file, readFileSync(file, 'utf8').replace('  views:\n    type: integer\n', '  views:\n    type: integer\n    index: true\n'));
      expect(await hints(root, q10)).to.deep.equal([]);
      expect(await hints(root, '/api/articles?filters[views][$gt]=3&filters[rating][$gt]=3')).to.deep.equal([]);
      expect(await hints(root, q10, 'mysql')).to.deep.equal([descendingKey]);
      expect(await hints(root, '/api/articles?sort=views', 'mysql')).to.deep.equal([]);
      writeFileSync(file, `${readFileSync(file, 'utf8')}indexes:\n  - attributes: [views:desc]\n`);
      for (const dialect of ['sqlite', 'postgres', 'mysql']) expect(await hints(root, q10, dialect), dialect).to.deep.equal([]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('reports a rejected query with its status and a missing route', async () => {
    const rejected = await cli(['explain', '--root', repoRoot, '/api/articles?fields[0]=nope']);
    expect(rejected.code).to.equal(1);
    expect(rejected.stderr).to.match(/^400 ValidationError: .*fields\[0\]/);
    expect((await cli(['explain', '--root', repoRoot, '/api/restaurants'])).stderr).to.match(/^403 ForbiddenError/);
    expect((await cli(['explain', '--root', repoRoot, '/api/nowhere'])).code).to.equal(1);
  });
});
