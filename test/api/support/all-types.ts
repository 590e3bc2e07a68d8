/**
 * The all-types test app (test/fixtures/apps/all-types) served in-process on a fresh database of
 * the given engine: schema synced by the plugin, data inserted by all-types-data.ts, then the API
 * over it with `sync: false`. Each suite serves its own copy and only reads it.
 */
import { join } from 'node:path';
import { expect } from 'chai';
import type { ContentApiOptions } from '../../../plugin/index.js';
import { loadSchema } from '../../../plugin/schema/load.js';
import type { DatabaseClient } from '../../../plugin/storage/database.js';
import { syncSchema } from '../../../plugin/storage/sync.js';
import { repoRoot, serveApi, type ServedApi } from '../../support/api.js';
import { createTestDatabase } from '../../support/databases.js';
import { seedAllTypes } from './all-types-data.js';

export const ALL_TYPES_ROOT = join(repoRoot, 'test', 'fixtures', 'apps', 'all-types');

/** The clear value of the `api-tests-editor` token whose hash is in the app's permissions.yaml. */
export const EDITOR_TOKEN = 'cat_all-types-editor-token-used-by-the-api-tests';

export interface AllTypesApp extends ServedApi {
  readonly client: DatabaseClient;
  /** Closes the API and drops the database. */
  close(): Promise<void>;
}

export async function serveAllTypes(client: DatabaseClient, options: Partial<ContentApiOptions> = {}): Promise<AllTypesApp> {
  const database = await createTestDatabase(client);
  try {
    const registry = await loadSchema(ALL_TYPES_ROOT);
    await syncSchema(database.knex, registry);
    await seedAllTypes(database.knex, client);
    const served = await serveApi({ root: ALL_TYPES_ROOT, database: database.knex, sync: false, ...options });
    return {
      ...served,
      client,
      async close() {
        await served.close();
        await database.drop();
      },
    };
  } catch (error) {
    await database.drop();
    throw error;
  }
}

/** A JSON body as the API answered it. */
export interface Envelope {
  data: unknown;
  meta?: { pagination?: Record<string, number> };
  error?: { status: number; name: string; message: string; details: Record<string, unknown> };
}

/** The ids of a list's entries, in response order. */
export function entryIds(body: Envelope): number[] {
  return (body.data as { id: number }[]).map((entry) => entry.id);
}

/** GET `url`, expecting a 200 list: the ids of its entries, in response order. */
export async function idsOf(app: ServedApi, url: string, headers: Record<string, string> = {}): Promise<number[]> {
  const response = await app.request.get(url).set(headers);
  expect(response.status, `${url}: ${JSON.stringify(response.body)}`).to.equal(200);
  const body = response.body as Envelope;
  expect(body.data, url).to.be.an('array');
  return entryIds(body);
}

/** GET `url`, expecting a 200: the whole body. */
export async function bodyOf(app: ServedApi, url: string, headers: Record<string, string> = {}): Promise<Envelope> {
  const response = await app.request.get(url).set(headers);
  expect(response.status, `${url}: ${JSON.stringify(response.body)}`).to.equal(200);
  return response.body as Envelope;
}

/**
 * GET `url`, expecting the 400 envelope exactly: `{ data: null, error: { status: 400,
 * name: 'ValidationError', message, details: { path } } }` with `path` also named in the message.
 */
export async function expectValidationError(app: ServedApi, url: string, path: string): Promise<string> {
  const response = await app.request.get(url);
  expect(response.status, `${url}: ${JSON.stringify(response.body)}`).to.equal(400);
  const body = response.body as Envelope;
  expect(Object.keys(body).sort(), url).to.deep.equal(['data', 'error']);
  expect(body.data, url).to.equal(null);
  expect(body.error, url).to.include({ status: 400, name: 'ValidationError' });
  expect(body.error!.details, url).to.deep.equal({ path });
  expect(body.error!.message, url).to.be.a('string').and.include(path);
  return body.error!.message;
}

/** GET `url`, expecting an error envelope of `status` and `name`. */
export async function expectError(app: ServedApi, url: string, status: number, name: string, headers: Record<string, string> = {}): Promise<void> {
  const response = await app.request.get(url).set(headers);
  expect(response.status, `${url}: ${JSON.stringify(response.body)}`).to.equal(status);
  const body = response.body as Envelope;
  expect(body.data, url).to.equal(null);
  expect(body.error, url).to.include({ status, name });
}
