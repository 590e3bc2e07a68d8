/**
 * What the cache suites share: the rules app (notes, members, tags, with row rules per role) served
 * with the response cache, its members set by the host (`x-member`), and a knex of its own on the
 * same database for writes the API's process does not make.
 */
import { join } from 'node:path';
import knexFactory, { type Knex } from 'knex';
import type supertest from 'supertest';
import { createTestApi, type TestApi, type TestApiOptions } from '../../plugin/testing/index.js';
import { repoRoot } from '../support/api.js';
import { appWithMembers } from '../support/member-app.js';

export const RULES_APP = join(repoRoot, 'test/rules/app');

export interface CachedApp {
  readonly kit: TestApi;
  readonly request: supertest.Agent;
  id(type: string, name: string): number;
  readonly members: Readonly<Record<string, Record<string, unknown>>>;
}

export async function cachedRulesApp(options: TestApiOptions): Promise<CachedApp> {
  const kit = await createTestApi({ root: RULES_APP, data: join(RULES_APP, 'data.yaml'), serverTiming: true, cache: { maxBytes: '8MB' }, ...options });
  const id = (type: string, name: string) => kit.ids.get(`api::${type}.${type}`)!.get(name)!;
  const members = {
    alice: { id: id('member', 'alice'), role: 'author' },
    bob: { id: id('member', 'bob'), role: 'author' },
    clock: { role: 'scheduled' },
    moderator: { role: 'moderator' },
  };
  const { default: agent } = await import('supertest');
  return { kit, request: agent.agent(appWithMembers(kit.api, members).callback()), id, members };
}

/** `hit` or `miss`, as the answer's Server-Timing says. */
export function cacheOutcome(response: { headers: Record<string, string> }): string | null {
  return /cache;desc="(\w+)"/.exec(response.headers['server-timing'] ?? '')?.[1] ?? null;
}

/** A second pool on the same database: its writes come from elsewhere, as another process's would. */
export function elsewhere(knex: Knex): Knex {
  const config = knex.client.config as Knex.Config;
  return knexFactory({ ...config, pool: { ...(config.pool ?? {}), min: 0, max: 2 } });
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * The rules app with the cache for the suite's tests, and a pool of its own on the database,
 * opened before them and closed after; the test data's own echo (PostgreSQL's notifications,
 * MariaDB's versions) is heard before the first test.
 */
export function useCachedRulesApp(options: TestApiOptions): { app(): CachedApp; other(): Knex } {
  let app: CachedApp | undefined;
  let other: Knex | undefined;
  before(async () => {
    app = await cachedRulesApp(options);
    other = elsewhere(app.kit.knex);
    await sleep(150);
  });
  after(async () => {
    await other?.destroy();
    await app?.kit.close();
  });
  return { app: () => app!, other: () => other! };
}
