/**
 * The write replay: every write case recorded from Strapi 4.26.2 (test/writes/recorded/, 249
 * cases) sent in `seq` order to the plugin over a fresh copy of the small fixture, on SQLite and —
 * with TEST_DATABASE_URL — on PostgreSQL, each answer and read-back compared as the recording's
 * README says. Cases where we answer differently on purpose carry their own expectation
 * (replay/deviations.ts). Cases listed in known-failures.txt are pending while they fail and fail
 * once they pass, so that list only shrinks.
 *
 * The whole sequence is sent before the tests report (ids depend on every earlier case), so a
 * --grep still replays everything:
 *   npx mocha dist/test/writes/replay.test.js
 *   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx mocha dist/test/writes/replay.test.js --grep '#64 '
 */
import { join } from 'node:path';
import Koa from 'koa';
import supertest from 'supertest';
import { contentApi, type ContentApi } from '../../plugin/index.js';
import { readKnownFailures, settleReplayedCase } from '../conformance/known-failures.js';
import { repoRoot } from '../support/api.js';
import { testDatabaseKinds } from '../support/databases.js';
import { loadRecordedCases, type RecordedCase } from './replay/cases.js';
import { deviationsBySeq } from './replay/deviations.js';
import { writerPermissions } from './replay/permissions.js';
import { describeRequest, replayCase } from './replay/replay-case.js';
import { SPENT_IDS, spendId } from './replay/spent-ids.js';
import { freshFixture, type FreshFixture } from './support/fixture.js';

const KNOWN_FAILURES_FILE = join(repoRoot, 'test', 'writes', 'known-failures.txt');
const REPLAY_TIMEOUT_MS = 180_000;

const cases = loadRecordedCases();
const deviations = deviationsBySeq();
const knownFailures = readKnownFailures(KNOWN_FAILURES_FILE);

function title(recorded: RecordedCase): string {
  const deviation = deviations.get(recorded.seq);
  return `#${recorded.seq} ${recorded.group}: ${recorded.name}${deviation ? ` [${deviation.reason.split(' ')[0]}]` : ''}`;
}

describe('write replay', function () {
  it('known-failures.txt, deviations.ts and spent-ids.ts name recorded cases only', function () {
    const seqs = new Set(cases.map((recorded) => String(recorded.seq)));
    const problems = [
      ...knownFailures.problems,
      ...knownFailures.entries.filter((entry) => !seqs.has(entry.caseId)).map((entry) => `${KNOWN_FAILURES_FILE}:${entry.line}: no recorded case with seq "${entry.caseId}"`),
      ...[...deviations.keys()].filter((seq) => !seqs.has(String(seq))).map((seq) => `deviations.ts: no recorded case with seq ${seq}`),
      ...SPENT_IDS.filter(({ seq }) => !seqs.has(String(seq))).map(({ seq }) => `spent-ids.ts: no recorded case with seq ${seq}`),
    ];
    if (problems.length > 0) throw new Error(problems.join('\n'));
  });

  for (const kind of testDatabaseKinds()) {
    describe(`(${kind.name})`, function () {
      let fixture: FreshFixture | undefined;
      let api: ContentApi | undefined;
      const outcomes = new Map<number, string[]>();

      before(async function () {
        this.timeout(REPLAY_TIMEOUT_MS);
        fixture = await freshFixture(kind.client, writerPermissions());
        api = await contentApi({ root: fixture.root, database: fixture.url, notFound: true, watchPermissions: false });
        const app = new Koa();
        app.silent = true;
        app.use(api.routes());
        app.use(api.allowedMethods());
        const agent = supertest.agent(app.callback());
        for (const recorded of cases) {
          try {
            const problems = await replayCase(agent, recorded, deviations.get(recorded.seq));
            for (const spent of SPENT_IDS.filter((candidate) => candidate.seq === recorded.seq)) problems.push(...(await spendId(agent, spent)));
            outcomes.set(recorded.seq, problems);
          } catch (error) {
            outcomes.set(recorded.seq, [`the replay threw: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`]);
          }
        }
      });

      after(async function () {
        this.timeout(30_000);
        if (outcomes.size > 0) console.log(`      ${summary(kind.name, outcomes)}`);
        await api?.close();
        await fixture?.drop();
      });

      for (const recorded of cases) {
        it(title(recorded), function () {
          const deviation = deviations.get(recorded.seq);
          settleReplayedCase(this, outcomes.get(recorded.seq), knownFailures.lookup(kind.name, String(recorded.seq)), () => `${describeRequest(recorded.request)}${deviation ? `\n  deviation ${deviation.reason}` : ''}`);
        });
      }
    });
  }
});

/** `write replay (sqlite): 190 of 227 cases pass, 37 known failures` (and what else needs attention). */
function summary(kindName: string, outcomes: Map<number, string[]>): string {
  let passing = 0;
  let known = 0;
  let unlisted = 0;
  let fixed = 0;
  for (const [seq, problems] of outcomes) {
    const listed = knownFailures.lookup(kindName, String(seq)) !== undefined;
    if (problems.length === 0) passing += 1;
    if (problems.length === 0 && listed) fixed += 1;
    if (problems.length > 0 && listed) known += 1;
    if (problems.length > 0 && !listed) unlisted += 1;
  }
  const extra = [unlisted ? `${unlisted} new failures` : '', fixed ? `${fixed} listed cases pass now` : ''].filter(Boolean);
  return `write replay (${kindName}): ${passing} of ${cases.length} cases pass, ${known} known failures${extra.length ? `, ${extra.join(', ')}` : ''}`;
}
