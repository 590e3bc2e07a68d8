/**
 * The upload replay: the cases recorded from Strapi 4.26.2 (recorded/cases.json, by record.mjs)
 * sent in order to the plugin over a fresh copy of the same fixture, on SQLite and — with
 * TEST_DATABASE_URL — PostgreSQL. Each answer, the rows each case added, changed or removed in
 * `files`, `files_related_morphs`, `files_folder_links` and `upload_folders`, and the objects it
 * added to or removed from the storage folder are compared with the recording (replay/compare.ts
 * says what is normalized). Cases answered differently on purpose carry their own expectation
 * (replay/deviations.ts).
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Koa from 'koa';
import supertest from 'supertest';
import { contentApi, type ContentApi } from '../../plugin/index.js';
import { testDatabaseKinds } from '../support/databases.js';
import { freshFixture, type FreshFixture } from '../writes/support/fixture.js';
import { compareCase, expectationOf, FileIds } from './replay/compare.js';
import { DEVIATIONS } from './replay/deviations.js';
import { uploadPermissions, WRITER_TOKEN } from './replay/permissions.js';
import { loadHelpers, loadRecording, UPLOADS_DIR, type RecordedCase, type TableDiff } from './replay/recorded.js';

const recording = loadRecording();

interface Replayed {
  readonly status: number;
  readonly response: unknown;
  readonly rows: Record<string, TableDiff>;
  readonly objects: { added: string[]; removed: string[] };
}

describe('upload replay', function () {
  for (const kind of testDatabaseKinds()) {
    describe(`(${kind.name})`, function () {
      let fixture: FreshFixture | undefined;
      let api: ContentApi | undefined;
      let storage: string | undefined;
      const replayed = new Map<number, Replayed | Error>();
      const ids = new FileIds();

      before(async function () {
        this.timeout(180_000);
        const { normalizer, requests } = await loadHelpers();
        fixture = await freshFixture(kind.client, uploadPermissions());
        storage = mkdtempSync(join(tmpdir(), 'content-api-uploads-'));
        api = await contentApi({ root: fixture.root, database: fixture.url, watchPermissions: false, upload: { folder: storage, maxFileBytes: recording.maxFileBytes } });
        const app = new Koa();
        app.silent = true;
        app.use(api.routes());
        const agent = supertest.agent(app.callback());
        const runStartedAt = Date.now();
        let rows = await normalizer.snapshotKnex(api.knex);
        let objects = new Set(readdirSync(storage));
        for (const recorded of recording.cases) {
          try {
            const answer = await send(agent, recorded, requests);
            const nextRows = await normalizer.snapshotKnex(api.knex);
            const nextObjects = new Set(readdirSync(storage));
            replayed.set(
              recorded.seq,
              normalizer.normalize(
                {
                  ...answer,
                  rows: Object.fromEntries(normalizer.ROW_TABLES.map((table) => [table, normalizer.diffRows(rows[table], nextRows[table])])),
                  objects: {
                    added: normalizer.normalizeObjectNames([...nextObjects].filter((name) => !objects.has(name))),
                    removed: normalizer.normalizeObjectNames([...objects].filter((name) => !nextObjects.has(name))),
                  },
                },
                runStartedAt,
              ),
            );
            const added = normalizer.diffRows(rows.files, nextRows.files).added;
            ids.learn(recorded.rows.files.added, added);
            rows = nextRows;
            objects = nextObjects;
          } catch (error) {
            replayed.set(recorded.seq, error instanceof Error ? error : new Error(String(error)));
          }
        }
      });

      after(async function () {
        this.timeout(30_000);
        await api?.close();
        await fixture?.drop();
        if (storage) rmSync(storage, { recursive: true, force: true });
      });

      for (const recorded of recording.cases) {
        const deviation = DEVIATIONS.get(recorded.seq);
        it(`#${recorded.seq} ${recorded.name}${deviation ? ` [deviation: ${deviation.reason}]` : ''}`, function () {
          const actual = replayed.get(recorded.seq);
          if (actual instanceof Error) throw actual;
          if (!actual) throw new Error('not replayed');
          const expected = expectationOf(recorded, ids);
          compareCase(recorded, deviation ? deviation.expect(expected, recorded.request.path, ids) : expected, actual);
        });
      }
    });
  }
});

async function send(agent: supertest.Agent, recorded: RecordedCase, requests: Awaited<ReturnType<typeof loadHelpers>>['requests']): Promise<{ status: number; response: unknown }> {
  const { method, path, parts, json, token } = recorded.request;
  const methods = { GET: agent.get, DELETE: agent.delete, PUT: agent.put, POST: agent.post } as const;
  let request = methods[method as keyof typeof methods].call(agent, path).set('Accept', 'application/json');
  if (token !== 'none') request = request.set('Authorization', `Bearer ${WRITER_TOKEN}`);
  if (parts) {
    for (const part of parts.map((item) => requests.resolvePart(item, join(UPLOADS_DIR, 'files')))) {
      request = part.value !== undefined ? request.field(part.field, part.value) : request.attach(part.field, part.content!, { filename: part.filename!, contentType: part.type! });
    }
  } else if (json !== undefined) request = request.send(json as object);
  const response = await request.buffer(true).parse((res, done) => {
    let text = '';
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => (text += chunk));
    res.on('end', () => done(null, text));
  });
  const text = response.body as string;
  return { status: response.status, response: text === '' ? null : JSON.parse(text) };
}
