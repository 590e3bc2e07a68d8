/**
 * `content-api serve --locales`, serve's answer to an unknown path under /api, and how many
 * processes serve by default, as a child process over a new SQLite database.
 */
import { expect } from 'chai';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cliPath, repoRoot, startServer, type RunningServer } from '../support/server.js';

/** The processes whose parent is `pid` (Linux's /proc). */
function childrenOf(pid: number): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((name) => {
      try {
        const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(') ') + 2).split(' ')[1]) === pid;
      } catch {
        return false;
      }
    })
    .map(Number);
}

describe('content-api serve flags', function () {
  this.timeout(60_000);
  let folder: string;
  let server: RunningServer | null = null;
  before(() => {
    folder = mkdtempSync(join(tmpdir(), 'content-api-serve-'));
  });
  afterEach(async () => {
    await server?.stop();
    server = null;
  });
  after(() => rmSync(folder, { recursive: true, force: true }));

  const create = (locale: string) =>
    fetch(`${server!.baseUrl}/api/articles`, {
      method: 'POST',
      headers: { authorization: 'Bearer demo-editor-token', 'content-type': 'application/json' },
      body: JSON.stringify({ data: { title: `In ${locale}`, locale } }),
    });

  it('--locales en,de: entries may be written in de, not in a locale left out', async () => {
    server = await startServer({ database: `sqlite:${join(folder, 'locales.db')}`, args: ['--locales', 'en,de', '--quiet'] });
    const german = await create('de');
    expect(german.status, await german.clone().text()).to.equal(200);
    expect(((await german.json()) as { data: { attributes: { locale: string } } }).data.attributes.locale).to.equal('de');
    const french = await create('fr');
    expect(french.status).to.equal(400);
    expect(((await french.json()) as { error: { message: string } }).error.message).to.equal("This locale doesn't exist");
  });

  it('answers an unknown path under /api with the 404 envelope', async () => {
    server = await startServer({ database: `sqlite:${join(folder, 'not-found.db')}`, args: ['--quiet'] });
    const response = await fetch(`${server.baseUrl}/api/nowhere`);
    expect(response.status).to.equal(404);
    expect(await response.json()).to.deep.equal({ data: null, error: { status: 404, name: 'NotFoundError', message: 'Not Found', details: {} } });
  });

  /** `serve` as a user types it: no `--workers` unless given (startServer adds `--workers 1` otherwise). */
  const serveAsTyped = (database: string, extra: readonly string[], env: NodeJS.ProcessEnv) =>
    startServer({ database, command: [process.execPath, cliPath, 'serve', '--root', repoRoot, '--database', database, '--host', '127.0.0.1', '--port', '{port}', '--quiet', ...extra], env });

  it('serves from one process by default: its read workers use the cores', async function () {
    if (process.platform !== 'linux') this.skip();
    server = await serveAsTyped(`sqlite:${join(folder, 'default-workers.db')}`, [], { WORKERS: '' });
    expect((await fetch(`${server.baseUrl}/api/articles`)).status).to.equal(200);
    expect(childrenOf(server.child.pid!)).to.deep.equal([]);
    expect(server.output()).to.match(/listening on http:\/\/127\.0\.0\.1:\d+\/api\n?$/m);
    expect(server.output()).not.to.contain('processes');
  });

  it('serves from as many processes as WORKERS asks', async function () {
    if (process.platform !== 'linux') this.skip();
    server = await serveAsTyped(`sqlite:${join(folder, 'two-workers.db')}`, [], { WORKERS: '2' });
    // The primary announces the address once both workers listen.
    const deadline = Date.now() + 30_000;
    while (!server.output().includes('(2 processes)') && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(server.output()).to.contain('(2 processes)');
    expect(childrenOf(server.child.pid!)).to.have.length(2);
    expect((await fetch(`${server.baseUrl}/api/articles`)).status).to.equal(200);
  });
});
