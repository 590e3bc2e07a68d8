/**
 * Conformance: replays every recorded Strapi 4.26.2 case of the conformance kit against
 * `content-api serve --no-sync` on a copy of the kit's fixture databases (small, then large), on
 * SQLite and — when TEST_DATABASE_URL or TEST_MYSQL_URL is set — on PostgreSQL and MariaDB
 * (filled by `content-api copy`). Each case is one test, failing with the replay runner's reason.
 * Cases listed in known-failures.txt are pending while they fail, and fail once they pass.
 * On MariaDB the cases where the reference itself answers differently there
 * (mariadb-reference.json, recorded by record-mariadb.mjs) are also checked against that answer.
 *
 * Run only this suite:
 *   npm test -- --grep conformance
 *   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm test -- --grep conformance
 *   npm test -- --grep 'conformance \(sqlite\) small.*P012'     (one case; the fixture still replays fully)
 * The kit is found through CONFORMANCE_DIR, ../shared/conformance or /work/shared/conformance.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { conformanceKitDir } from '../support/conformance-kit.js';
import { testDatabaseKinds } from '../support/databases.js';
import { repoRoot, startServer, type RunningServer } from '../support/server.js';
import { caseFailure, readKnownFailures, type KnownFailures } from './known-failures.js';
import { prepareFixture, readKitCases, replayCases, type CaseResult, type FixtureDatabase, type KitCase } from './replay.js';

const KNOWN_FAILURES_FILE = join(repoRoot, 'test', 'conformance', 'known-failures.txt');
/** Copying the large fixture into PostgreSQL is the slowest step. */
const PREPARE_TIMEOUT_MS = 150_000;
const REPLAY_TIMEOUT_MS = 120_000;

function loadKit(): { kit: string; cases: KitCase[] } | Error {
  try {
    const kit = conformanceKitDir();
    return { kit, cases: readKitCases(kit) };
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}

/** Where Strapi 4.26.2 on MariaDB answers a case without a deviation differently from the kit's recording. */
interface MariadbDifference {
  readonly id: string;
  readonly query: string;
  readonly db: string;
  readonly status: number;
  readonly body: { data: unknown[]; meta: unknown };
}

function readMariadbDifferences(): MariadbDifference[] {
  return JSON.parse(readFileSync(join(repoRoot, 'test', 'conformance', 'mariadb-reference.json'), 'utf8')).differences;
}

/** An entry as text with its keys sorted, so that two lists can be compared as multisets. */
const entryKey = (value: unknown): string =>
  JSON.stringify(value, (_key, inner) =>
    inner && typeof inner === 'object' && !Array.isArray(inner) ? Object.fromEntries(Object.keys(inner).sort().map((key) => [key, inner[key]])) : inner,
  );

const loaded = loadKit();
const knownFailures: KnownFailures = readKnownFailures(KNOWN_FAILURES_FILE);

describe('conformance', function () {
  if (loaded instanceof Error) {
    it('finds the conformance kit', function () {
      throw loaded;
    });
    return;
  }
  const { kit, cases } = loaded;
  const fixtures = [...new Set(cases.map((testCase) => testCase.db))].sort((a, b) => (a === 'small' ? -1 : b === 'small' ? 1 : a.localeCompare(b)));

  describe('known-failures.txt', function () {
    it('follows the format and names only cases of the kit', function () {
      const ids = new Set(cases.map((testCase) => testCase.id));
      const problems = [
        ...knownFailures.problems,
        ...knownFailures.entries
          .filter((entry) => !ids.has(entry.caseId))
          .map((entry) => `${KNOWN_FAILURES_FILE}:${entry.line}: no case "${entry.caseId}" in ${kit}`),
      ];
      if (problems.length > 0) throw new Error(problems.join('\n'));
    });
  });

  for (const databaseKind of testDatabaseKinds()) {
    describe(`(${databaseKind.name})`, function () {
      for (const fixture of fixtures) {
        describe(`${fixture}`, function () {
          let database: FixtureDatabase | undefined;
          let server: RunningServer | undefined;
          let results = new Map<string, CaseResult>();

          before(async function () {
            this.timeout(PREPARE_TIMEOUT_MS + REPLAY_TIMEOUT_MS + 60_000);
            // MariaDB's small fixture gets the change triggers, its large one not: lists then keep
            // their totals on one (sql/mysql-known-totals.ts) and count on the other, and the kit's
            // cases, many of which share a count, check both forms of the statement.
            const changeTriggers = databaseKind.client === 'mysql' && fixture === 'small';
            database = await prepareFixture(kit, fixture, databaseKind.client, PREPARE_TIMEOUT_MS, { changeTriggers });
            server = await startServer({ database: database.url, args: ['--no-sync'] });
            results = await replayCases(kit, server.baseUrl, fixture, REPLAY_TIMEOUT_MS);
          });

          after(async function () {
            this.timeout(30_000);
            await server?.stop();
            await database?.drop();
          });

          if (databaseKind.client === 'mysql') {
            // Without a sort, Strapi's order is its query plan's: on MariaDB the plan differs, so
            // its order does. The plugin keeps the recorded order on every engine (the case's own
            // test); the reference's MariaDB answer must hold the same entries and meta.
            for (const difference of readMariadbDifferences().filter((candidate) => candidate.db === fixture)) {
              it(`${difference.id} answers the entries Strapi answers on MariaDB (mariadb-reference.json)`, async function () {
                const response = await fetch(server!.baseUrl + difference.query, { headers: { accept: 'application/json' } });
                const body = (await response.json()) as { data: unknown[]; meta: unknown };
                if (response.status !== difference.status) throw caseFailure(`status ${response.status}, Strapi on MariaDB ${difference.status}`);
                if (!isDeepStrictEqual(body.meta, difference.body.meta)) throw caseFailure(`meta ${JSON.stringify(body.meta)}, Strapi on MariaDB ${JSON.stringify(difference.body.meta)}`);
                const ours = body.data.map(entryKey).sort();
                const strapis = difference.body.data.map(entryKey).sort();
                if (!isDeepStrictEqual(ours, strapis)) throw caseFailure(`entries differ from Strapi's on MariaDB:\n${ours.join('\n')}\nvs\n${strapis.join('\n')}`);
              });
            }
          }

          for (const testCase of cases.filter((candidate) => candidate.db === fixture)) {
            it(`${testCase.id} ${testCase.query}`, function () {
              const result = results.get(testCase.id);
              const known = knownFailures.lookup(databaseKind.name, testCase.id);
              if (!result) throw new Error(`run.mjs reported nothing for ${testCase.file}`);
              if (result.result === 'pass') {
                if (known) {
                  throw caseFailure(`passes now: remove it from known-failures.txt (line ${known.line}: ${known.kind} ${testCase.id})`);
                }
                return;
              }
              if (known) {
                this.test!.title += `  [known failure: ${known.reason}]`;
                this.skip();
              }
              throw caseFailure(result.reason ?? `result "${result.result}"`);
            });
          }
        });
      }
    });
  }
});
