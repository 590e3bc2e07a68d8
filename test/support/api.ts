/**
 * An API served in-process for HTTP tests (supertest on app.callback(), no port), over the
 * conformance fixture (a copy of strapi-small.db, or the same data copied into a new PostgreSQL
 * database) or over any schema folder and database.
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import Koa from 'koa';
import supertest from 'supertest';
import { contentApi, type ContentApi, type ContentApiOptions } from '../../plugin/index.js';
import { loadSchema } from '../../plugin/schema/load.js';
import { copyDatabase } from '../../plugin/storage/copy.js';
import { openDatabase, type DatabaseClient } from '../../plugin/storage/database.js';
import { conformanceKitDir } from './conformance-kit.js';
import { createTestDatabase, type TestDatabase } from './databases.js';

export const repoRoot = resolve(fileURLToPath(new URL('../../../', import.meta.url)));

export interface ServedApi {
  readonly api: ContentApi;
  readonly app: Koa;
  readonly request: supertest.Agent;
  close(): Promise<void>;
}

/** Serves `options` in a fresh Koa app; Server-Timing on, the API's 404 envelope on. */
export async function serveApi(options: ContentApiOptions): Promise<ServedApi> {
  const api = await contentApi({ serverTiming: true, notFound: true, ...options });
  const app = new Koa();
  app.silent = true;
  app.use(api.routes());
  app.use(api.allowedMethods());
  return { api, app, request: supertest.agent(app.callback()), close: () => api.close() };
}

export type FixtureSize = 'small' | 'large';

interface Fixture {
  url: string;
  drop(): Promise<void>;
}

const fixtures = new Map<string, Promise<Fixture>>();

/**
 * The conformance fixture database (written by Strapi 4.26.2) on the given engine, created once
 * per test run and shared: tests must only read it.
 */
export function fixtureDatabase(client: DatabaseClient, size: FixtureSize = 'small'): Promise<string> {
  const key = `${client}:${size}`;
  let fixture = fixtures.get(key);
  if (!fixture) {
    fixture = createFixture(client, size);
    fixtures.set(key, fixture);
  }
  return fixture.then((created) => created.url);
}

async function createFixture(client: DatabaseClient, size: FixtureSize): Promise<Fixture> {
  const dir = mkdtempSync(join(tmpdir(), 'content-api-fixture-'));
  const file = join(dir, `strapi-${size}.db`);
  copyFileSync(join(conformanceKitDir(), 'db', `strapi-${size}.db`), file);
  const sqliteUrl = `sqlite:${file}`;
  if (client === 'sqlite') return { url: sqliteUrl, drop: async () => rmSync(dir, { recursive: true, force: true }) };
  const target: TestDatabase = await createTestDatabase(client);
  const source = openDatabase(sqliteUrl);
  try {
    await copyDatabase({ from: source, to: target.knex, registry: await loadSchema(repoRoot) });
  } finally {
    await source.destroy();
    rmSync(dir, { recursive: true, force: true });
  }
  return { url: target.url, drop: () => target.drop() };
}

/** Drops every fixture database created by this run. */
export async function dropFixtures(): Promise<void> {
  const created = await Promise.all(fixtures.values());
  fixtures.clear();
  await Promise.all(created.map((fixture) => fixture.drop()));
}

/** The API over the fixture, with the example schema and permissions, as `content-api serve --no-sync` runs it. */
export async function serveFixture(client: DatabaseClient, size: FixtureSize = 'small', options: Partial<ContentApiOptions> = {}): Promise<ServedApi> {
  return serveApi({ root: repoRoot, database: await fixtureDatabase(client, size), sync: false, ...options });
}

/** The number of SQL statements a response reports in its Server-Timing header. */
export function statementsOf(response: { headers: Record<string, string> }): number {
  const match = /statements=(\d+)/.exec(response.headers['server-timing'] ?? '');
  if (!match) throw new Error(`no statement count in Server-Timing: ${response.headers['server-timing']}`);
  return Number(match[1]);
}
