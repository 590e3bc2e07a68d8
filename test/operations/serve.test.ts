/**
 * `content-api serve` as operators run it, as a child process, on both engines: graceful
 * shutdown on SIGTERM (a request waiting in the database completes with 200, new connections are
 * refused, the process exits 0), configuration from the environment with the flags' names, the
 * request log on stdout (and `--quiet`), `--cors`.
 */
import type { ChildProcess } from 'node:child_process';
import { expect } from 'chai';
import { repoRoot } from '../support/api.js';
import { testDatabaseKinds } from '../support/databases.js';
import { lockableDatabase, type LockableDatabase } from '../support/held-lock.js';
import { cliPath, freePort, startServer, type RunningServer } from '../support/server.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function exitOf(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
}

async function refused(url: string): Promise<boolean> {
  try {
    await fetch(url, { signal: AbortSignal.timeout(2_000) });
    return false;
  } catch (error) {
    return /ECONNREFUSED/.test(String((error as { cause?: unknown }).cause ?? error));
  }
}

for (const kind of testDatabaseKinds()) {
  describe(`serve as operators run it (${kind.name})`, function () {
    this.timeout(60_000);
    let database: LockableDatabase;
    let server: RunningServer | null = null;
    before(async () => {
      database = await lockableDatabase(kind.client);
    });
    afterEach(async () => {
      await database.unlock();
      await server?.stop();
      server = null;
    });
    after(() => database?.close());

    it('on SIGTERM, finishes the request in flight with 200, refuses new connections, closes the pool and exits 0', async () => {
      server = await startServer({ database: database.url, args: ['--no-sync', '--timeout', '8000'] });
      await database.lock();
      const inFlight = fetch(`${server.baseUrl}/api/articles?fields[0]=title&pagination[pageSize]=2`);
      await sleep(300);
      server.child.kill('SIGTERM');
      await sleep(300);
      expect(server.child.exitCode, 'still draining').to.equal(null);
      expect(await refused(`${server.baseUrl}/_health`), 'new connections are refused').to.equal(true);
      await database.unlock();
      const response = await inFlight;
      expect(response.status).to.equal(200);
      expect(response.headers.get('connection')).to.equal('close');
      expect(((await response.json()) as { data: unknown[] }).data).to.have.length(2);
      const exit = await exitOf(server.child);
      expect(exit, server.output()).to.deep.equal({ code: 0, signal: null });
      expect(server.output()).to.match(/SIGTERM: no new connections/).and.to.match(/content-api stopped/);
    });

    it('takes HOST, PORT, DATABASE_URL, TIMEOUT and CORS_ORIGIN from the environment', async () => {
      const port = await freePort();
      server = await startServer({
        database: database.url,
        command: [process.execPath, cliPath, 'serve', '--root', repoRoot, '--no-sync'],
        env: { HOST: '127.0.0.1', PORT: String(port), DATABASE_URL: database.url, TIMEOUT: '400', CORS_ORIGIN: 'https://a.example,https://b.example' },
      });
      expect(server.baseUrl).to.equal(`http://127.0.0.1:${port}`);
      const allowed = await fetch(`${server.baseUrl}/api/articles?fields[0]=title`, { headers: { Origin: 'https://b.example' } });
      expect(allowed.status).to.equal(200);
      expect(allowed.headers.get('access-control-allow-origin')).to.equal('https://b.example');
      const other = await fetch(`${server.baseUrl}/api/articles`, { headers: { Origin: 'https://c.example' } });
      expect(other.headers.get('access-control-allow-origin')).to.equal(null);
      await database.lock();
      const started = Date.now();
      const late = await fetch(`${server.baseUrl}/api/articles/1`);
      expect(late.status, 'TIMEOUT=400 is the deadline').to.equal(503);
      expect(Date.now() - started).to.be.below(3_000);
    });

    it('logs one JSON line per request on stdout, none with --quiet; --cors sets the origin', async () => {
      server = await startServer({ database: database.url, args: ['--no-sync'] });
      await fetch(`${server.baseUrl}/api/articles?filters[title][$eq]=CANARY-51d0`, { headers: { 'X-Request-Id': 'op-1' } });
      // The log is written in batches, at least every 50 ms.
      const logged = () => server!.output().split('\n').find((text) => text.includes('"reqId":"op-1"'));
      for (const started = Date.now(); !logged() && Date.now() - started < 2_000; ) await sleep(20);
      const line = logged();
      expect(line, server.output()).to.be.a('string');
      expect(JSON.parse(line!)).to.include({ method: 'GET', path: '/api/articles', status: 200, statements: 1 });
      expect(server.output()).to.not.include('CANARY');
      await server.stop();

      server = await startServer({ database: database.url, args: ['--no-sync', '--quiet', '--cors', 'https://a.example'] });
      const response = await fetch(`${server.baseUrl}/api/articles`, { headers: { Origin: 'https://a.example' } });
      expect(response.headers.get('access-control-allow-origin')).to.equal('https://a.example');
      await sleep(100);
      expect(server.output()).to.not.include('"reqId"');
    });
  });
}
