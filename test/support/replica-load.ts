/**
 * What the read-replica suites (PostgreSQL's and MariaDB's) share: the small fixture copied into
 * a primary of the test's own, and light reads sent while a replica is stopped or started.
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadSchema } from '../../plugin/schema/load.js';
import { copyDatabase } from '../../plugin/storage/copy.js';
import { openDatabase } from '../../plugin/storage/database.js';
import { repoRoot, type ServedApi } from './api.js';
import { conformanceKitDir } from './conformance-kit.js';

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Copies the kit's small fixture into the database at `url` (`content-api copy`). */
export async function copySmallFixture(url: string): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'content-api-replicas-'));
  const file = join(dir, 'strapi-small.db');
  copyFileSync(join(conformanceKitDir(), 'db', 'strapi-small.db'), file);
  const source = openDatabase(`sqlite:${file}`);
  const target = openDatabase(url);
  try {
    await copyDatabase({ from: source, to: target, registry: await loadSchema(repoRoot) });
  } finally {
    await source.destroy();
    await target.destroy();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Sends light reads on 4 connections until `done` settles; returns every status. */
export async function readsUntil(served: ServedApi, done: Promise<unknown>): Promise<number[]> {
  const statuses: number[] = [];
  let sending = true;
  void done.finally(() => (sending = false));
  await Promise.all(
    Array.from({ length: 4 }, async (_, connection) => {
      while (sending) {
        const response = await served.request.get(`/api/articles/${1 + (statuses.length % 3)}?populate[category][fields][0]=name&c=${connection}`);
        statuses.push(response.status);
        await sleep(20);
      }
    }),
  );
  await done;
  return statuses;
}
