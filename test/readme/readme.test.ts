/**
 * The README's tour: every request of its `http` blocks runs against the example app with its
 * demo data, on each engine, and answers the status the README shows (200 unless a `# → NNN`
 * line follows it) — with data, so that the examples show something.
 */
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { seedDemoData } from '../../plugin/seed/seed.js';
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from '../support/databases.js';
import { repoRoot, serveApi, type ServedApi } from '../support/api.js';

interface TourRequest {
  path: string;
  status: number;
}

/** The `GET` lines of the README's ```http blocks, each with the status shown after it. */
export function tourRequests(readme: string): TourRequest[] {
  const requests: TourRequest[] = [];
  for (const block of readme.matchAll(/```http\n([\s\S]*?)```/g)) {
    for (const line of block[1].split('\n')) {
      const request = /^GET (\S+)$/.exec(line.trim());
      const status = /^# → (\d{3})$/.exec(line.trim());
      if (request) requests.push({ path: request[1], status: 200 });
      else if (status && requests.length) requests[requests.length - 1].status = Number(status[1]);
    }
  }
  return requests;
}

/** The paths of the README's `curl` commands against the example app (http://127.0.0.1:1337). */
export function curlPaths(readme: string): string[] {
  return [...readme.matchAll(/^curl [^\n]*?'?http:\/\/127\.0\.0\.1:1337(\/[^\s']*)'?\s*$/gm)].map((match) => match[1]!);
}

const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
const requests = tourRequests(readme);
const curls = curlPaths(readme);

describe('README tour', () => {
  it('has at least 20 requests', () => {
    expect(requests.length).to.be.at.least(20);
  });

  it('has curl commands for the quick start and the health routes', () => {
    expect(curls).to.include.members(['/_health', '/_ready']);
    expect(curls.length).to.be.at.least(3);
  });
});

for (const kind of testDatabaseKinds()) {
  describe(`README tour on the seeded example app (${kind.name})`, function () {
    let database: TestDatabase;
    let served: ServedApi;
    before(async function () {
      this.timeout(120_000);
      database = await createTestDatabase(kind.client);
      served = await serveApi({ root: repoRoot, database: database.url });
      await seedDemoData(served.api.knex, served.api.registry);
    });
    after(async () => {
      await served?.close();
      await database?.drop();
    });

    for (const path of curls) {
      it(`curl ${path} → 200`, async () => {
        const response = await served.request.get(path);
        expect(response.status, response.text.slice(0, 300)).to.equal(200);
      });
    }

    for (const { path, status } of requests) {
      it(`GET ${path} → ${status}`, async () => {
        const response = await served.request.get(path);
        expect(response.status, response.text.slice(0, 300)).to.equal(status);
        if (status === 200) {
          const { data } = response.body;
          expect(Array.isArray(data) ? data.length : data ? 1 : 0, 'the example shows data').to.be.greaterThan(0);
        } else {
          expect(response.body).to.have.nested.property('error.status', status);
        }
      });
    }
  });
}
