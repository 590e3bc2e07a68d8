/**
 * The app corpus: public Strapi v4 apps other than the conformance kit's, each with the reads and
 * writes the reference (Strapi 4.26.2) answered on it, recorded by test/apps/record.mjs into
 * test/apps/<app>/recorded/. For each app and each database kind, the app's schema files
 * (test/apps/<app>/strapi-src, as the app's repository holds them) go through the package's
 * importer unmodified, a fresh database is synced, the files the reference stored on upload are
 * inserted as recorded (the package has no upload route), and every recorded step is sent in
 * order — so ids come out as the reference gave them — and compared as the write replay compares
 * (test/writes/replay/compare.ts: whole bodies for a success, status, error name and paths for an
 * error, "<now>" for a timestamp the run produced). Where the package departs from Strapi by design
 * (docs/deviations.md), a rule of expectation() states our answer instead.
 *
 * A step listed in test/apps/<app>/known-failures.txt is pending while it fails and fails once it
 * passes. An app the importer cannot take as it is fails the run with the importer's problems.
 *
 *   npx mocha dist/test/apps/apps.test.js
 *   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx mocha dist/test/apps/apps.test.js --grep 'corporate \(postgres\)'
 */
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Koa from 'koa';
import supertest from 'supertest';
import { parse, stringify } from 'yaml';
import { tokenHash } from '../../plugin/access/tokens.js';
import { contentApi, type ContentApi } from '../../plugin/index.js';
import { importStrapiApp, type ImportReport } from '../../plugin/schema/import-strapi.js';
import { readKnownFailures, settleReplayedCase, type KnownFailures } from '../conformance/known-failures.js';
import { repoRoot } from '../support/api.js';
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from '../support/databases.js';
import type { RecordedRequest } from '../writes/replay/cases.js';
import { compareAnswer, show } from '../writes/replay/compare.js';
import { sendRequest, WRITER_TOKEN } from '../writes/replay/send.js';

const APPS_DIR = join(repoRoot, 'test', 'apps');
const REPLAY_TIMEOUT_MS = 120_000;
const EVERY_ACTION = ['find', 'findOne', 'preview', 'create', 'update', 'delete'];
/** Fixed, so the file is the same on every run; the token is a test secret anyway. */
const SALT = 'app-corpus-salt-0001';

interface RecordedStep {
  readonly seq: number;
  readonly group: string;
  readonly name: string;
  readonly request: RecordedRequest & { readonly file?: unknown };
  readonly status: number;
  readonly response: unknown;
  readonly responseText?: string;
}

interface AppCorpus {
  readonly app: string;
  readonly dir: string;
  readonly steps: RecordedStep[];
  readonly knownFailures: KnownFailures;
  readonly knownFailuresFile: string;
  readonly customFields: Record<string, string>;
}

/** Every app of test/apps with a recording, its steps in `seq` order. */
function loadCorpora(): AppCorpus[] {
  return readdirSync(APPS_DIR, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(APPS_DIR, entry.name, 'recorded', 'index.json')))
    .map((entry) => {
      const dir = join(APPS_DIR, entry.name);
      const index = JSON.parse(readFileSync(join(dir, 'recorded', 'index.json'), 'utf8')) as { groups: { group: string; file: string; cases: number }[]; total: number };
      const steps: RecordedStep[] = [];
      for (const { group, file, cases } of index.groups) {
        const parsed = JSON.parse(readFileSync(join(dir, 'recorded', file), 'utf8')) as { cases: Omit<RecordedStep, 'group'>[] };
        if (parsed.cases.length !== cases) throw new Error(`${entry.name}/recorded/${file}: ${parsed.cases.length} steps, index.json says ${cases}`);
        steps.push(...parsed.cases.map((step) => ({ ...step, group })));
      }
      steps.sort((a, b) => a.seq - b.seq);
      if (steps.length !== index.total) throw new Error(`${entry.name}/recorded: ${steps.length} steps, index.json says ${index.total}`);
      const plugins = JSON.parse(readFileSync(join(dir, 'strapi-src', 'plugins.json'), 'utf8')) as { plugins: { customFields?: Record<string, string> }[] };
      const knownFailuresFile = join(dir, 'known-failures.txt');
      return {
        app: entry.name,
        dir,
        steps,
        knownFailuresFile,
        knownFailures: readKnownFailures(existsSync(knownFailuresFile) ? knownFailuresFile : '/dev/null'),
        // What the app's plugins register, as --custom-field would say it: the plugins themselves
        // are not part of the fixture.
        customFields: Object.assign({}, ...plugins.plugins.map((plugin) => plugin.customFields ?? {})),
      };
    });
}

/** The app's schema imported into a folder of its own, or why the importer cannot take it. */
async function importApp(corpus: AppCorpus): Promise<{ root: string; report: ImportReport } | { problem: string }> {
  const root = mkdtempSync(join(tmpdir(), `content-api-app-${corpus.app}-`));
  try {
    const report = await importStrapiApp(join(corpus.dir, 'strapi-src'), root, { customFields: corpus.customFields });
    if (report.problems.length > 0) {
      rmSync(root, { recursive: true, force: true });
      return { problem: report.problems.map((problem) => `${problem.file} ${problem.path.join('.')}: ${problem.reason}`).join('; ') };
    }
    return { root, report };
  } catch (error) {
    rmSync(root, { recursive: true, force: true });
    return { problem: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * The public role reads the app's own types and its local plugins' (the recording granted it find
 * and findOne on those, not on the users-permissions types); the recording's token (full access
 * in the reference) does everything.
 */
function permissionsYaml(root: string): string {
  // A type is named by its uid where the file states one (a plugin's: its file name is not its name).
  const names = readdirSync(join(root, 'content-types'))
    .filter((file) => file.endsWith('.yaml'))
    .map((file) => String((parse(readFileSync(join(root, 'content-types', file), 'utf8')) as { uid?: unknown }).uid ?? file.slice(0, -'.yaml'.length)));
  const appTypes = names.filter((name) => !name.startsWith('plugin::users-permissions.'));
  return stringify({
    roles: {
      public: { ...Object.fromEntries(appTypes.map((name) => [name, ['find', 'findOne']])), file: ['find'] },
      writer: { ...Object.fromEntries(names.map((name) => [name, EVERY_ACTION])), file: ['find', 'findOne'] },
    },
    tokens: [{ name: 'writer', role: 'writer', hash: tokenHash(WRITER_TOKEN, SALT) }],
  });
}

/** The files rows the reference wrote for an upload, from its answer. */
async function insertUploadedFiles(api: ContentApi, step: RecordedStep): Promise<string[]> {
  const File = api.models.model<Record<string, unknown>>('plugin::upload.file');
  const problems: string[] = [];
  const now = new Date();
  for (const file of step.response as Record<string, unknown>[]) {
    const inserted = (await File.query().insert({
      name: file.name,
      alternative_text: file.alternativeText ?? null,
      caption: file.caption ?? null,
      width: file.width ?? null,
      height: file.height ?? null,
      formats: file.formats ?? null,
      hash: file.hash,
      ext: file.ext,
      mime: file.mime,
      size: file.size,
      url: file.url,
      preview_url: file.previewUrl ?? null,
      provider: file.provider,
      provider_metadata: file.provider_metadata ?? null,
      folder_path: '/',
      created_at: now,
      updated_at: now,
    })) as unknown as { id: number };
    if (inserted.id !== file.id) problems.push(`the files row was given id ${inserted.id}, the reference's is ${show(file.id)}`);
  }
  return problems;
}

interface Expectation {
  readonly status: number;
  readonly response: unknown;
  readonly responseText?: string;
  /** The deviations (docs/deviations.md) that made it differ from the recording. */
  readonly deviations: readonly string[];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Whether a populated entry is a draft: only an entry that answers its publishedAt can tell. */
function isDraft(entry: unknown): boolean {
  return isObject(entry) && isObject(entry.attributes) && entry.attributes.publishedAt === null;
}

/**
 * The recorded answer, where the package departs from Strapi by design, turned into ours by rule:
 * the recordings are never edited by hand, and a rule holds for every step it meets.
 * - W14: a write to a path that names no route (a plugin type's localizations) is a 404, not a 405.
 * - D7: reading drafts needs the preview permission, which the public role lacks (the recorder
 *   asks for preview without a token only on draft-and-publish types): a 403.
 * - D2: createdBy and updatedBy are never populated (Strapi does, as { data: null } here, for the
 *   types with options.populateCreatorFields).
 * - D6: under the live state no draft appears as a populated relation, at any depth (Strapi's
 *   populate=* and zone populates list them): a to-many list loses its drafts, a to-one draft is
 *   { data: null }. Only drafts the recording shows with their publishedAt can be recognised. A
 *   write's answer includes drafts, as Strapi's does.
 */
function expectation(step: RecordedStep): Expectation {
  const recorded = { status: step.status, response: step.response, ...(step.responseText !== undefined ? { responseText: step.responseText } : {}) };
  const query = new URLSearchParams(step.request.path.split('?')[1] ?? '');
  // A write's answer is read with drafts included (docs/writes.md), as a preview read.
  const preview = query.get('publicationState') === 'preview' || step.request.method !== 'GET';
  if (step.request.method === 'GET' && step.request.token === 'none' && query.get('publicationState') === 'preview') {
    return { status: 403, response: { data: null, error: { status: 403, name: 'ForbiddenError' } }, deviations: ['D7'] };
  }
  // W14: a write to a path that names no route is a 404 where Strapi's router answers 405: here the
  // localizations route of a plugin's localized type, which Strapi's i18n plugin does not add.
  if (step.status === 405 && step.request.method === 'POST' && step.request.path.split('?')[0]!.endsWith('/localizations')) {
    return { status: 404, response: { data: null, error: { status: 404, name: 'NotFoundError' } }, deviations: ['W14'] };
  }
  if (step.status >= 300) return { ...recorded, deviations: [] };
  const deviations = new Set<string>();
  const adjust = (value: unknown, depth: number): unknown => {
    if (Array.isArray(value)) return value.map((item) => adjust(item, depth));
    if (!isObject(value)) return value;
    const result: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      if ((key === 'createdBy' || key === 'updatedBy') && depth > 0) {
        deviations.add('D2');
        continue;
      }
      if (!preview && depth > 0 && isObject(item) && 'data' in item && Object.keys(item).length === 1) {
        const data = item.data;
        if (Array.isArray(data) && data.some(isDraft)) {
          deviations.add('D6');
          result[key] = { data: data.filter((entry) => !isDraft(entry)).map((entry) => adjust(entry, depth + 1)) };
          continue;
        }
        if (isDraft(data)) {
          deviations.add('D6');
          result[key] = { data: null };
          continue;
        }
      }
      result[key] = adjust(item, key === 'attributes' ? depth + 1 : depth);
    }
    return result;
  };
  // The root entries' own state follows the request (the recorder reads drafts by id only with
  // preview): only what they hold is adjusted.
  const response = isObject(step.response) && 'data' in step.response ? { ...step.response, data: adjust(step.response.data, 0) } : step.response;
  return deviations.size ? { ...recorded, response, deviations: [...deviations].sort() } : { ...recorded, deviations: [] };
}

function describeStep(step: RecordedStep): string {
  const body = step.request.body !== undefined ? ` ${show(step.request.body)}` : '';
  return `${step.request.method} ${step.request.path}${body}${step.request.token === 'none' ? ' (no token)' : ''}`;
}

const corpora = loadCorpora();
const imported = new Map(await Promise.all(corpora.map(async (corpus) => [corpus.app, await importApp(corpus)] as const)));

after(function () {
  for (const result of imported.values()) if ('root' in result) rmSync(result.root, { recursive: true, force: true });
});

for (const corpus of corpora) {
  const importedApp = imported.get(corpus.app)!;

  describe(`app corpus: ${corpus.app}`, function () {
    it('known-failures.txt names recorded steps only', function () {
      const seqs = new Set(corpus.steps.map((step) => String(step.seq)));
      const problems = [
        ...corpus.knownFailures.problems,
        ...corpus.knownFailures.entries.filter((entry) => !seqs.has(entry.caseId)).map((entry) => `${corpus.knownFailuresFile}:${entry.line}: no recorded step with seq "${entry.caseId}"`),
      ];
      if (problems.length > 0) throw new Error(problems.join('\n'));
    });

    // The app imports as its repository holds it, or nothing of it can be replayed: that fails the run.
    it('imports as it is', function () {
      if ('problem' in importedApp) throw new Error(`the importer does not take the app as it is: ${importedApp.problem}`);
    });
    if ('problem' in importedApp) return;
    const { root } = importedApp;

    for (const kind of testDatabaseKinds()) {
      describe(`(${kind.name})`, function () {
        let database: TestDatabase | undefined;
        let folder: string | undefined;
        let api: ContentApi | undefined;
        const outcomes = new Map<number, string[]>();

        before(async function () {
          this.timeout(REPLAY_TIMEOUT_MS);
          // A schema folder per engine: the imported schema, with the replay's permissions beside it.
          folder = mkdtempSync(join(tmpdir(), `content-api-app-${corpus.app}-${kind.name}-`));
          cpSync(root, folder, { recursive: true });
          writeFileSync(join(folder, 'permissions.yaml'), permissionsYaml(folder));
          let url: string;
          if (kind.client === 'sqlite') url = `sqlite:${join(folder, 'app.db')}`;
          else {
            database = await createTestDatabase(kind.client);
            url = database.url;
          }
          api = await contentApi({ root: folder, database: url, notFound: true, watchPermissions: false, locales: ['en', 'fr'], defaultLocale: 'en' });
          const app = new Koa();
          app.silent = true;
          app.use(api.routes());
          app.use(api.allowedMethods());
          const agent = supertest.agent(app.callback());
          for (const step of corpus.steps) {
            try {
              if (step.group === 'uploads') {
                outcomes.set(step.seq, await insertUploadedFiles(api, step));
                continue;
              }
              const { method, path, body, token } = step.request;
              const answer = await sendRequest(agent, { method, path, ...(body !== undefined ? { body } : {}), ...(token ? { token } : {}) });
              outcomes.set(step.seq, compareAnswer('answer', expectation(step), answer, Date.now()));
            } catch (error) {
              outcomes.set(step.seq, [`the replay threw: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`]);
            }
          }
        });

        after(async function () {
          this.timeout(30_000);
          if (outcomes.size > 0) console.log(`      ${summary(corpus, kind.name, outcomes)}`);
          await api?.close();
          await database?.drop();
          if (folder) rmSync(folder, { recursive: true, force: true });
        });

        for (const step of corpus.steps) {
          const { deviations } = expectation(step);
          it(`#${step.seq} ${step.group}: ${step.name}${deviations.length ? ` [${deviations.join(', ')}]` : ''}`, function () {
            settleReplayedCase(this, outcomes.get(step.seq), corpus.knownFailures.lookup(kind.name, String(step.seq)), () => describeStep(step));
          });
        }
      });
    }
  });
}

/** `app corpus corporate (sqlite): 400 of 429 steps pass, 29 known failures`. */
function summary(corpus: AppCorpus, kindName: string, outcomes: Map<number, string[]>): string {
  let passing = 0;
  let known = 0;
  let unlisted = 0;
  for (const [seq, problems] of outcomes) {
    const listed = corpus.knownFailures.lookup(kindName, String(seq)) !== undefined;
    if (problems.length === 0) passing += 1;
    else if (listed) known += 1;
    else unlisted += 1;
  }
  return `app corpus ${corpus.app} (${kindName}): ${passing} of ${corpus.steps.length} steps pass, ${known} known failures${unlisted ? `, ${unlisted} new failures` : ''}`;
}
