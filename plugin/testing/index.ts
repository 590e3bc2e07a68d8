/**
 * `koa-content-api/testing`: an API over a fresh database filled from a YAML data file, for the
 * test suites of an app's own schema.
 *
 *   const api = await createTestApi({ root: '.', data: 'test/data.yaml' });
 *   const response = await api.request.get('/api/articles?populate=category');
 *   await api.close();
 *
 * The database is a temporary SQLite file, or a database of its own on the PostgreSQL server
 * `TEST_DATABASE_URL` names (`database: 'postgres'`); it is synced from the schema, loaded through
 * the generated models in one transaction, and dropped by close().
 *
 * It is hermetic: the app's webhooks.yaml is not read (its secrets are not needed) and nothing is
 * sent outside the process, unless the test names its own targets (`webhooks: { targets }`).
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Koa from 'koa';
import type { Knex } from 'knex';
import type supertest from 'supertest';
import { contentApi, type ContentApi, type ContentApiOptions, type WebhooksOption } from '../index.js';
import { buildModels, type ModelSet } from '../storage/models.js';
import type { DatabaseClient } from '../storage/database.js';
import { createTestDatabase, mysqlServerUrl, postgresServerUrl } from './database.js';
import { parseTestData } from './data-file.js';
import { loadTestData, type EntryIds } from './load-data.js';
import { uploadDataFiles } from './upload-files.js';

export { parseTestData, type TestData } from './data-file.js';
export { createTestDatabase, mysqlServerUrl, postgresServerUrl, type TestDatabase } from './database.js';

export interface TestApiOptions extends Omit<Partial<ContentApiOptions>, 'database' | 'sync' | 'webhooks'> {
  /** The schema folder (default `.`). */
  root?: string;
  /** The data file: a path, or `{ text, file }` for data written inline. */
  data?: string | { text: string; file?: string };
  /** `sqlite` (default) or `postgres` (needs TEST_DATABASE_URL). */
  database?: DatabaseClient;
  /** The time written as createdAt, updatedAt and publishedAt when the data gives none (default now). */
  now?: () => number;
  /**
   * The only webhook targets of the test API, as webhooks.yaml writes them (a receiver of the
   * test's own); default none. The app's webhooks.yaml is never read.
   */
  webhooks?: TestWebhooksOption;
}

/** Targets, and how the deliverer paces itself (`pollInterval`, `retryDelay`, …). */
export type TestWebhooksOption = Omit<WebhooksOption, 'file' | 'watch' | 'deliver'>;

export interface TestApi {
  readonly api: ContentApi;
  /** A Koa app serving the API, its 404s and 405s, as a host app would. */
  readonly app: Koa;
  /** A supertest agent on the app (no port is opened). */
  readonly request: supertest.Agent;
  /** The generated Objection models, bound to the test database. */
  readonly models: ModelSet;
  readonly knex: Knex;
  /** The id of each entry of the data file: `ids.get('api::article.article')!.get('hello')`. */
  readonly ids: EntryIds;
  /** Closes the API and drops the database. */
  close(): Promise<void>;
}

/** The database kinds a suite can run on here: SQLite, PostgreSQL when TEST_DATABASE_URL is set, MariaDB when TEST_MYSQL_URL is. */
export function testDatabases(): DatabaseClient[] {
  return ['sqlite' as const, ...(postgresServerUrl() ? ['postgres' as const] : []), ...(mysqlServerUrl() ? ['mysql' as const] : [])];
}

export async function createTestApi(options: TestApiOptions = {}): Promise<TestApi> {
  const { data, database: client = 'sqlite', now = Date.now, webhooks, ...apiOptions } = options;
  const database = await createTestDatabase(client);
  let uploads: string | null = null;
  try {
    // Uploads go to a folder of the test's own, never the app's public/uploads.
    const upload = apiOptions.upload === false ? false : { ...apiOptions.upload, folder: apiOptions.upload?.folder ?? (uploads = await mkdtemp(join(tmpdir(), 'content-api-test-uploads-'))) };
    const api = await contentApi({ root: '.', notFound: true, ...apiOptions, upload, now, database: database.knex, sync: true, webhooks: { ...webhooks, targets: webhooks?.targets ?? {}, watch: false } });
    const text = typeof data === 'string' ? await readFile(data, 'utf8') : (data?.text ?? '');
    const file = typeof data === 'string' ? data : (data?.file ?? 'data.yaml');
    let ids: EntryIds;
    try {
      const parsed = parseTestData(text, file, api.registry);
      ids = await loadTestData(database.knex, api.registry, parsed, new Date(now()), await uploadDataFiles(api.media, parsed));
    } catch (error) {
      await api.close();
      throw error;
    }
    const app = new Koa();
    app.silent = true;
    app.use(api.routes());
    app.use(api.allowedMethods());
    const { default: agent } = await import('supertest');
    return {
      api,
      app,
      request: agent.agent(app.callback()),
      models: buildModels(api.registry, { knex: database.knex }),
      knex: database.knex,
      ids,
      async close() {
        await api.close();
        await database.drop();
        if (uploads) await rm(uploads, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await database.drop();
    if (uploads) await rm(uploads, { recursive: true, force: true });
    throw error;
  }
}
