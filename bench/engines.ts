/**
 * The servers the bench measures: `content-api serve --no-sync` on a copy of strapi-large.db,
 * and on the same data copied into a fresh PostgreSQL database when one is configured.
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadSchema } from '../plugin/schema/load.js';
import { copyDatabase } from '../plugin/storage/copy.js';
import { openDatabase } from '../plugin/storage/database.js';
import { conformanceKitDir } from '../test/support/conformance-kit.js';
import { createTestDatabase, postgresServerUrl } from '../test/support/databases.js';
import { startServer } from '../test/support/server.js';

export interface BenchEngine {
  name: string;
  description: string;
  baseUrl: string;
  /** The server's process, whose CPU time the bench reads. */
  pid: number;
  stop(): Promise<void>;
}

export const repoRoot = resolve(fileURLToPath(new URL('../../', import.meta.url)));

export async function prepareEngines(): Promise<BenchEngine[]> {
  const dir = mkdtempSync(join(tmpdir(), 'content-api-bench-'));
  const file = join(dir, 'strapi-large.db');
  copyFileSync(join(conformanceKitDir(), 'db', 'strapi-large.db'), file);
  const engines: BenchEngine[] = [];
  const sqlite = await startServer({ root: repoRoot, database: `sqlite:${file}`, args: [] });
  engines.push({ name: 'sqlite', description: 'better-sqlite3, copy of strapi-large.db', baseUrl: sqlite.baseUrl, pid: sqlite.child.pid!, stop: () => sqlite.stop() });
  if (process.env.BENCH_DATABASE_URL || postgresServerUrl()) {
    const target = await createTestDatabase('postgres');
    const source = openDatabase(`sqlite:${file}`);
    await copyDatabase({ from: source, to: target.knex, registry: await loadSchema(repoRoot) });
    await source.destroy();
    const postgres = await startServer({ root: repoRoot, database: target.url, args: [] });
    engines.push({
      name: 'postgres',
      description: 'pg, strapi-large.db copied with content-api copy',
      baseUrl: postgres.baseUrl,
      pid: postgres.child.pid!,
      stop: async () => {
        await postgres.stop();
        await target.drop();
      },
    });
  }
  const last = engines.at(-1)!;
  const stopLast = last.stop;
  last.stop = async () => {
    await stopLast();
    rmSync(dir, { recursive: true, force: true });
  };
  return engines;
}
