/**
 * The GraphQL replay: every operation recorded from Strapi 4.26.2 with its GraphQL plugin
 * (recorded/kit.json, written by record-operations.mjs from operations/kit.mjs) sent, as recorded,
 * to `content-api serve --no-sync --graphql` on a copy of the kit's small fixture — on SQLite, and
 * on PostgreSQL and MariaDB when TEST_DATABASE_URL and TEST_MYSQL_URL are set (copied there by
 * `content-api copy`, as the conformance suite does). Each answer is compared with the recorded
 * one exactly (replay/compare.ts; date-times the run wrote, login tokens and bcrypt hashes
 * normalised), and every query answered 200 must report one statement per operation in
 * Server-Timing. Operations answered differently on purpose carry their own expectation
 * (replay/deviations.ts); those listed in known-failures.txt are pending while they fail and fail
 * once they pass, so that list only shrinks. Queries are sent first, then the mutations in order.
 *
 *   npx mocha dist/test/graphql/operations.test.js
 *   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx mocha dist/test/graphql/operations.test.js --grep 'postgres'
 */
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { readKnownFailures, settleReplayedCase } from '../conformance/known-failures.js';
import { prepareFixture, type FixtureDatabase } from '../conformance/replay.js';
import { conformanceKitDir } from '../support/conformance-kit.js';
import { testDatabaseKinds } from '../support/databases.js';
import { repoRoot, startServer, type RunningServer } from '../support/server.js';
import { compareAnswers, jsonFieldNames, statementsOf } from './replay/compare.js';
import { checkDeviation, DEVIATIONS, withoutMessages } from './replay/deviations.js';
import { publicActions, replayPermissions } from './replay/permissions.js';
import { loadOperationSources, loadRecording, loadSendModule, type RecordedOperation, type SendModule } from './replay/recorded.js';
import { expectedStatements } from './replay/statements.js';

const KNOWN_FAILURES_FILE = join(repoRoot, 'test', 'graphql', 'known-failures.txt');
const PREPARE_TIMEOUT_MS = 150_000;
const REPLAY_TIMEOUT_MS = 240_000;
/** The reference app's secret: login tokens are signed alike (their text is normalised anyway). */
const JWT_SECRET = 'oracle-jwt-secret';

const recording = loadRecording();
const knownFailures = readKnownFailures(KNOWN_FAILURES_FILE);
const jsonFields = jsonFieldNames(join(repoRoot, 'test', 'graphql', 'sdl', 'kit.graphql'));

/** A schema folder of its own: the kit's schema, and the permissions the reference had. */
function schemaRoot(kit: string): { root: string; remove: () => void } {
  const root = mkdtempSync(join(tmpdir(), 'content-api-graphql-'));
  for (const entry of ['content-types', 'components']) cpSync(join(repoRoot, entry), join(root, entry), { recursive: true });
  writeFileSync(join(root, 'permissions.yaml'), replayPermissions(recording.tokens, publicActions(join(kit, 'db', 'strapi-small.db'))));
  return { root, remove: () => rmSync(root, { recursive: true, force: true }) };
}

/** The problems of one replayed operation, and whether its statements were counted. */
async function replayOperation(send: SendModule, baseUrl: string, operation: RecordedOperation, runStartedAt: number): Promise<{ problems: string[]; counted: boolean }> {
  const answer = await send.sendRequest(baseUrl, operation.request);
  const normalized = { status: answer.status, ...(answer.text !== undefined ? { text: answer.text } : { body: send.normalizeAnswer(answer.body, runStartedAt) }) };
  const deviation = DEVIATIONS[operation.name];
  const problems = !deviation
    ? compareAnswers(operation, normalized, jsonFields)
    : 'messagesOnly' in deviation
      ? compareAnswers(withoutMessages(operation), withoutMessages(normalized), jsonFields)
      : checkDeviation(deviation, operation, normalized);
  const expected = operation.kind === 'query' && answer.status === 200 ? expectedStatements(operation.request.body, operation.query, answer.body) : 0;
  const reported = statementsOf(answer.serverTiming);
  if (expected > 0 && reported !== expected) problems.push(`Server-Timing reports ${reported ?? 'no'} statements, expected ${expected}`);
  return { problems, counted: expected > 0 };
}

describe('graphql operations', function () {
  it('recorded/kit.json holds the operations of operations/kit.mjs (else: node test/graphql/record-operations.mjs)', async function () {
    const sources = await loadOperationSources();
    const recorded = new Map(recording.operations.map((operation) => [operation.name, operation]));
    const stale = sources.filter((source) => {
      const entry = recorded.get(String(source.name));
      return !entry || (['query', 'variables', 'operationName', 'auth', 'method'] as const).some((key) => !isDeepStrictEqual(entry[key], source[key]));
    });
    const gone = [...recorded.keys()].filter((name) => !sources.some((source) => source.name === name));
    if (stale.length || gone.length) throw new Error(`re-record: changed or new ${stale.map((source) => source.name).join(', ') || 'none'}; removed ${gone.join(', ') || 'none'}`);
  });

  it('known-failures.txt and replay/deviations.ts name recorded operations only', function () {
    const names = new Set(recording.operations.map((operation) => operation.name));
    const problems = [
      ...knownFailures.problems,
      ...knownFailures.entries.filter((entry) => !names.has(entry.caseId)).map((entry) => `${KNOWN_FAILURES_FILE}:${entry.line}: no recorded operation "${entry.caseId}"`),
      ...Object.keys(DEVIATIONS).filter((name) => !names.has(name)).map((name) => `deviations.ts: no recorded operation "${name}"`),
    ];
    if (problems.length > 0) throw new Error(problems.join('\n'));
  });

  for (const kind of testDatabaseKinds()) {
    describe(`(${kind.name})`, function () {
      let database: FixtureDatabase | undefined;
      let server: RunningServer | undefined;
      let schema: { root: string; remove: () => void } | undefined;
      const outcomes = new Map<string, string[]>();
      let counted = 0;

      before(async function () {
        this.timeout(PREPARE_TIMEOUT_MS + REPLAY_TIMEOUT_MS);
        const kit = conformanceKitDir();
        const send = await loadSendModule();
        database = await prepareFixture(kit, 'small', kind.client, PREPARE_TIMEOUT_MS);
        schema = schemaRoot(kit);
        server = await startServer({
          root: schema.root,
          database: database.url,
          args: ['--no-sync', '--graphql', '--users', '--register'],
          // Not production: the reference was recorded with introspection on, the package's default elsewhere.
          env: { JWT_SECRET, NODE_ENV: 'test' },
        });
        const runStartedAt = Date.now();
        for (const operation of recording.operations) {
          try {
            const replayed = await replayOperation(send, server.baseUrl, operation, runStartedAt);
            outcomes.set(operation.name, replayed.problems);
            if (replayed.counted) counted += 1;
          } catch (error) {
            outcomes.set(operation.name, [`the replay threw: ${error instanceof Error ? error.message : String(error)}`]);
          }
        }
      });

      after(async function () {
        this.timeout(30_000);
        const failing = [...outcomes.values()].filter((problems) => problems.length > 0).length;
        if (outcomes.size > 0) console.log(`      ${kind.name}: ${outcomes.size - failing} of ${outcomes.size} operations answered as recorded or as a deviation says; statements counted for ${counted}`);
        await server?.stop();
        await database?.drop();
        schema?.remove();
      });

      for (const operation of recording.operations) {
        it(`${operation.name}${operation.kind === 'mutation' ? ' (mutation)' : ''}`, function () {
          const known = knownFailures.lookup(kind.name, operation.name);
          settleReplayedCase(this, outcomes.get(operation.name), known, () => `${operation.request.method} ${operation.query ?? operation.request.body ?? operation.request.path}`.slice(0, 400));
        });
      }
    });
  }
});
