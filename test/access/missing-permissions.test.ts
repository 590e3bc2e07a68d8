/**
 * A missing permissions file at start is an error naming the file and the option, unless the
 * API is meant to be closed (`allowMissingPermissions`, `serve --allow-missing-permissions`);
 * a closed API answers the public with 403 and any token with 401.
 */
import { expect } from 'chai';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { contentApi } from '../../plugin/index.js';
import { spawnSync } from 'node:child_process';
import { cliPath, startServer, type RunningServer } from '../support/server.js';
import { repoRoot, serveApi } from '../support/api.js';

describe('a missing permissions.yaml at start', function () {
  this.timeout(60_000);
  let root: string;
  let server: RunningServer | null = null;
  before(() => {
    root = mkdtempSync(join(tmpdir(), 'content-api-no-permissions-'));
    for (const entry of ['content-types', 'components']) cpSync(join(repoRoot, entry), join(root, entry), { recursive: true });
  });
  afterEach(async () => {
    await server?.stop();
    server = null;
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  it('is an error of contentApi() naming the file and the option', async () => {
    let thrown: unknown;
    try {
      await contentApi({ root, database: `sqlite:${join(root, 'refused.db')}` });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).to.be.instanceOf(Error);
    expect((thrown as Error).message).to.include(join(root, 'permissions.yaml')).and.to.include('allowMissingPermissions: true');
  });

  it('starts a closed API with allowMissingPermissions: true', async () => {
    const served = await serveApi({ root, database: `sqlite:${join(root, 'closed.db')}`, allowMissingPermissions: true });
    try {
      expect((await served.request.get('/api/articles')).status).to.equal(403);
      expect((await served.request.get('/api/articles').set('Authorization', 'Bearer demo-editor-token')).status).to.equal(401);
    } finally {
      await served.close();
    }
  });

  it('makes serve exit 1 with the message, and serve --allow-missing-permissions start', async () => {
    // Bounded: a server that starts anyway is killed, and the test fails.
    const refused = spawnSync(process.execPath, [cliPath, 'serve', '--root', root, '--database', `sqlite:${join(root, 'cli.db')}`, '--port', '0', '--workers', '1', '--quiet'], { cwd: root, encoding: 'utf8', timeout: 20_000 });
    expect(refused.status).to.equal(1);
    expect(refused.stderr).to.include(join(root, 'permissions.yaml')).and.to.include('--allow-missing-permissions');
    server = await startServer({ root, database: `sqlite:${join(root, 'cli.db')}`, args: ['--allow-missing-permissions', '--quiet'] });
    expect((await fetch(`${server.baseUrl}/api/articles`)).status).to.equal(403);
  });
});
