/**
 * The single-type cases recorded from Strapi 4.26.2 (recorded/, asked by record.mjs), sent in
 * order to the plugin on every engine: the homepage's and the members' from no entry at all, the
 * article cases on a fresh copy of the small fixture. Each answer must be the recorded one (an error's whole body, a
 * success's whole body with "<now>" standing for a date-time of the run), except where
 * replay-deviations.ts gives ours; every read must be one statement.
 *
 * The whole sequence is sent before the tests report (each case sees what the earlier ones wrote).
 */
import type { DatabaseClient } from '../../plugin/storage/database.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import type supertest from 'supertest';
import { loadSchema } from '../../plugin/schema/load.js';
import { syncSchema } from '../../plugin/storage/sync.js';
import { repoRoot, serveApi, type ServedApi } from '../support/api.js';
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from '../support/databases.js';
import { firstDifference } from '../writes/replay/compare.js';
import type { RecordedRequest } from '../writes/replay/cases.js';
import { sendRequest } from '../writes/replay/send.js';
import { writerPermissions } from '../writes/replay/permissions.js';
import { freshFixture, type FreshFixture } from '../writes/support/fixture.js';
import { SINGLE_TYPES_ROOT } from './homepages.js';
import { DEVIATIONS } from './replay-deviations.js';

interface RecordedCase {
  readonly seq: number;
  readonly name: string;
  readonly request: RecordedRequest;
  readonly status: number;
  readonly response: unknown;
}

function recorded(group: string): RecordedCase[] {
  const file = JSON.parse(readFileSync(join(repoRoot, 'test', 'single-types', 'recorded', `${group}.json`), 'utf8')) as { cases: RecordedCase[] };
  return file.cases;
}

/** The problems of one answer, against the recording or our deviation from it. */
async function replayCase(agent: supertest.Agent, group: string, recordedCase: RecordedCase): Promise<string[]> {
  const answer = await sendRequest(agent, recordedCase.request);
  const deviation = DEVIATIONS[`${group}#${recordedCase.seq}`];
  const expected = structuredClone({ status: recordedCase.status, response: recordedCase.response as Record<string, unknown> });
  deviation?.expect?.(expected);
  if (answer.status !== expected.status) return [`status: expected ${expected.status}, got ${answer.status} ${answer.text.slice(0, 300)}`];
  const problems: string[] = [];
  if (deviation?.nameOnly) {
    const name = (body: unknown) => (body as { error?: { name?: unknown } } | undefined)?.error?.name;
    if (name(answer.body) !== name(expected.response)) problems.push(`error.name: expected ${String(name(expected.response))}, got ${String(name(answer.body))}`);
    // A query's 400 names its parameter (`details.path`) where our expectation gives one.
    const path = (body: unknown) => (body as { error?: { details?: { path?: unknown } } } | undefined)?.error?.details?.path;
    if (path(expected.response) !== undefined && path(answer.body) !== path(expected.response)) problems.push(`error.details.path: expected ${String(path(expected.response))}, got ${String(path(answer.body))}`);
  } else {
    const difference = firstDifference(expected.response, answer.body, Date.now());
    if (difference) problems.push(difference);
  }
  const statements = Number(/statements=(\d+)/.exec(answer.headers?.['server-timing'] ?? '')?.[1] ?? NaN);
  if (recordedCase.request.method === 'GET' && answer.status === 200 && statements !== 1) problems.push(`a read ran ${statements} statements`);
  return problems;
}

interface Served {
  readonly agent: supertest.Agent;
  close(): Promise<void>;
}

async function serveHomepages(client: DatabaseClient): Promise<Served> {
  const database: TestDatabase = await createTestDatabase(client);
  await syncSchema(database.knex, await loadSchema(SINGLE_TYPES_ROOT));
  const served: ServedApi = await serveApi({ root: SINGLE_TYPES_ROOT, database: database.knex, sync: false, locales: ['en', 'fr'] });
  return { agent: served.request, close: async () => (await served.close(), await database.drop()) };
}

async function serveArticles(client: DatabaseClient): Promise<Served> {
  const fixture: FreshFixture = await freshFixture(client, writerPermissions());
  const served = await serveApi({ root: fixture.root, database: fixture.url, watchPermissions: false });
  return { agent: served.request, close: async () => (await served.close(), await fixture.drop()) };
}

const GROUPS = [
  { group: 'homepage', serve: serveHomepages },
  { group: 'members', serve: serveHomepages },
  { group: 'article-queries', serve: serveArticles },
  { group: 'article-localizations', serve: serveArticles },
];

for (const kind of testDatabaseKinds()) {
  for (const { group, serve } of GROUPS) {
    describe(`single-type replay: ${group} (${kind.name})`, function () {
      const cases = recorded(group);
      const outcomes = new Map<number, string[]>();
      before(async function () {
        this.timeout(120_000);
        const served = await serve(kind.client);
        try {
          for (const recordedCase of cases) outcomes.set(recordedCase.seq, await replayCase(served.agent, group, recordedCase));
        } finally {
          await served.close();
        }
      });

      for (const recordedCase of cases) {
        const deviation = DEVIATIONS[`${group}#${recordedCase.seq}`];
        it(`#${recordedCase.seq} ${recordedCase.name}${deviation ? ` [${deviation.row}]` : ''}`, function () {
          expect(outcomes.get(recordedCase.seq), `${recordedCase.request.method} ${recordedCase.request.path}`).to.deep.equal([]);
        });
      }
    });
  }
}
