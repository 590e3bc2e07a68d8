/**
 * `serve --watch` rebuilds the whole API on each edit, permissions.yaml included: a deleted or
 * emptied file fails the rebuild and the running API keeps its rules; an API started closed with
 * `--allow-missing-permissions` stays so across edits until the file is written, and from then
 * on a deletion is refused like any other.
 */
import { expect } from 'chai';
import { cpSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Koa from 'koa';
import supertest from 'supertest';
import { liveApi, type LiveApi } from '../../plugin/cli/live-api.js';
import { repoRoot } from '../support/api.js';

const PUBLIC_ARTICLES = 'roles:\n  public:\n    article: [find, findOne]\n';

describe('permissions.yaml under serve --watch', function () {
  this.timeout(30_000);
  let root: string;
  let live: LiveApi | null = null;
  const failures: unknown[] = [];
  const file = () => join(root, 'permissions.yaml');
  const articles = async () => {
    const app = new Koa();
    app.use(live!.middleware);
    return (await supertest(app.callback()).get('/api/articles')).status;
  };
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'content-api-watch-permissions-'));
    for (const entry of ['content-types', 'components']) cpSync(join(repoRoot, entry), join(root, entry), { recursive: true });
    failures.length = 0;
  });
  afterEach(async () => {
    await live?.close();
    live = null;
    rmSync(root, { recursive: true, force: true });
  });
  const start = (allowMissingPermissions: boolean) =>
    liveApi({ root, database: `sqlite:${join(root, 'content.db')}`, sqliteReadWorkers: 0, allowMissingPermissions }, { reloaded: () => undefined, failed: (error) => failures.push(error) });

  it('keeps the running rules when the file is deleted or emptied', async () => {
    writeFileSync(file(), PUBLIC_ARTICLES);
    live = await start(false);
    expect(await articles()).to.equal(200);
    for (const spoil of [() => unlinkSync(file()), () => writeFileSync(file(), '')]) {
      spoil();
      await live.reload();
      expect(failures).to.have.length.greaterThan(0);
      expect(await articles()).to.equal(200);
      failures.length = 0;
    }
  });

  it('started closed without the file, stays closed across edits, applies the file once written, then refuses its deletion', async () => {
    live = await start(true);
    expect(await articles()).to.equal(403);
    await live.reload();
    expect(failures).to.deep.equal([]);
    expect(await articles()).to.equal(403);
    writeFileSync(file(), PUBLIC_ARTICLES);
    await live.reload();
    expect(await articles()).to.equal(200);
    unlinkSync(file());
    await live.reload();
    // The watcher may have reported the deletion too, before the explicit reload.
    expect(failures).to.have.length.within(1, 2);
    expect(await articles()).to.equal(200);
  });
});
