/**
 * `serve --workers N`: N processes behind one port, on every engine (each worker opens its own
 * pool to the server's database). Both answer, a worker that dies is replaced while the others
 * go on serving, and SIGTERM stops them all with exit code 0.
 */
import { execFileSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { expect } from 'chai';
import { fixtureDatabase } from '../support/api.js';
import { testDatabaseKinds } from '../support/databases.js';
import { startServer, type RunningServer } from '../support/server.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A GET on a connection of its own (a kept-alive one may lead to the worker a test killed). */
function statusOf(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    http.get(url, { agent: false }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
    }).on('error', reject);
  });
}

/** The worker processes of a primary. */
function workersOf(child: ChildProcess): number[] {
  try {
    return execFileSync('pgrep', ['-P', String(child.pid)]).toString().trim().split('\n').filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

for (const kind of testDatabaseKinds()) {
  describe(`serve --workers (${kind.name})`, function () {
    this.timeout(60_000);
    let server: RunningServer;
    before(async () => {
      server = await startServer({ database: await fixtureDatabase(kind.client), args: ['--no-sync', '--workers', '2'] });
    });
    after(() => server?.stop());

    it('serves from two processes behind one port, announced once', async () => {
      expect(workersOf(server.child)).to.have.length(2);
      const statuses = await Promise.all(Array.from({ length: 20 }, () => statusOf(`${server.baseUrl}/api/articles/1`)));
      expect(statuses.every((status) => status === 200)).to.equal(true);
      expect(server.output().match(/listening on/g)).to.have.length(1);
      expect(server.output()).to.include('(2 processes)');
    });

    it("gives its workers glibc's fixed mmap threshold, which the primary's environment did not set", function () {
      if (process.env.MALLOC_MMAP_THRESHOLD_ !== undefined) this.skip();
      const environmentOf = (pid: number) => readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0');
      expect(environmentOf(server.child.pid!)).not.to.include('MALLOC_MMAP_THRESHOLD_=262144');
      for (const worker of workersOf(server.child)) expect(environmentOf(worker)).to.include('MALLOC_MMAP_THRESHOLD_=262144');
    });

    it('replaces a worker that dies, and the other serves meanwhile', async () => {
      const [victim] = workersOf(server.child);
      process.kill(victim!, 'SIGKILL');
      for (let attempt = 0; attempt < 10; attempt += 1) expect(await statusOf(`${server.baseUrl}/api/articles/1`)).to.equal(200);
      const deadline = Date.now() + 10_000;
      while (Date.now() < deadline && (workersOf(server.child).length < 2 || workersOf(server.child).includes(victim!))) await sleep(100);
      const now = workersOf(server.child);
      expect(now).to.have.length(2);
      expect(now).not.to.include(victim);
      // The primary's line may still be in the pipe.
      for (let wait = 0; wait < 20 && !/starting another/.test(server.output()); wait += 1) await sleep(100);
      expect(server.output()).to.match(/exited \(SIGKILL\); starting another/);
    });

    it('stops every worker on SIGTERM and exits 0', async () => {
      const workers = workersOf(server.child);
      const exited = new Promise<number | null>((resolve) => server.child.once('exit', (code) => resolve(code)));
      const started = Date.now();
      server.child.kill('SIGTERM');
      expect(await exited).to.equal(0);
      // Nothing left pending on a closed pool keeps the primary alive (knex waits 60 s on one).
      expect(Date.now() - started, 'stopped within the drain and a margin').to.be.below(15_000);
      for (const pid of workers) expect(() => process.kill(pid, 0), `worker ${pid} still runs`).to.throw();
      expect(server.output()).to.include('content-api stopped');
    });
  });
}
