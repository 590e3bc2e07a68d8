/**
 * `content-api token create` and `content-api explain`, run as a user runs them, and an API
 * token created by the first one used against the API.
 */
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
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

  it('prints a token once and stores only its salted hash, keeping the comments', async () => {
    const { code, stdout } = await cli(['token', 'create', '--root', root, '--role', 'editor', '--name', 'ci']);
    expect(code).to.equal(0);
    const token = stdout.trim();
    expect(token).to.match(/^cat_[A-Za-z0-9_-]{40,}$/);
    const permissions = readFileSync(join(root, 'permissions.yaml'), 'utf8');
    expect(permissions).to.not.include(token);
    expect(permissions).to.match(/name: ci\n\s+role: editor\n\s+hash: sha256:/);
    expect(permissions).to.include('# Roles, what each may read and write');

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

  it('an expired token is a 401', async () => {
    const { stdout } = await cli(['token', 'create', '--root', root, '--role', 'editor', '--name', 'old', '--expires', '2020-01-01T00:00:00Z']);
    const expired = await serveApi({ root, database: await fixtureDatabase('sqlite'), sync: false });
    try {
      const response = await expired.request.get('/api/articles').set('Authorization', `Bearer ${stdout.trim()}`);
      expect(response.status).to.equal(401);
    } finally {
      await expired.close();
    }
  });
});

describe('content-api explain', () => {
  it('prints the one statement of a request, then its entries and count, per dialect', async () => {
    const query = '/api/articles?populate[category][fields][0]=name&filters[title][$contains]=Tips';
    const sqlite = await cli(['explain', '--root', repoRoot, query]);
    expect(sqlite.code).to.equal(0);
    expect(sqlite.stdout).to.match(/^-- statement\nSELECT CAST\(CAST\(@p\d+ AS TEXT\) \|\| coalesce\(group_concat\(listed."entry", ','\), ''\)/);
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

  it('reports a rejected query with its status and a missing route', async () => {
    const rejected = await cli(['explain', '--root', repoRoot, '/api/articles?fields[0]=nope']);
    expect(rejected.code).to.equal(1);
    expect(rejected.stderr).to.match(/^400 ValidationError: .*fields\[0\]/);
    expect((await cli(['explain', '--root', repoRoot, '/api/restaurants'])).stderr).to.match(/^403 ForbiddenError/);
    expect((await cli(['explain', '--root', repoRoot, '/api/nowhere'])).code).to.equal(1);
  });
});
