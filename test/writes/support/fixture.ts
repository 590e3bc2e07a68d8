/**
 * A private, writable copy of the conformance app for write suites: the example schema in a
 * folder of its own (so a suite may give it its own permissions.yaml) and a fresh copy of the
 * small fixture Strapi 4.26.2 wrote — a SQLite file, or the same data copied into a new
 * PostgreSQL or MariaDB database. Unlike the shared read fixtures, every suite may change it.
 */
import { copyFileSync, cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadSchema } from '../../../plugin/schema/load.js';
import { copyDatabase } from '../../../plugin/storage/copy.js';
import { openDatabase, type DatabaseClient } from '../../../plugin/storage/database.js';
import { repoRoot } from '../../support/api.js';
import { conformanceKitDir } from '../../support/conformance-kit.js';
import { createTestDatabase } from '../../support/databases.js';

export interface FreshFixture {
  /** The schema folder: content-types/, components/ and permissions.yaml. */
  readonly root: string;
  /** `sqlite:<copy>` or `postgres://…/<fresh database>`. */
  readonly url: string;
  /** Removes the copy and the folder. */
  drop(): Promise<void>;
}

/**
 * A fresh copy of the small fixture on `client`, with `permissions` (YAML text) as the schema
 * folder's permissions.yaml; the example's own when none is given. `prepare` may change the
 * SQLite copy before it is copied to another engine.
 */
export async function freshFixture(client: DatabaseClient, permissions?: string, prepare?: (sqliteFile: string) => void): Promise<FreshFixture> {
  const root = mkdtempSync(join(tmpdir(), 'content-api-writes-'));
  for (const entry of ['content-types', 'components', 'permissions.yaml']) cpSync(join(repoRoot, entry), join(root, entry), { recursive: true });
  if (permissions !== undefined) writeFileSync(join(root, 'permissions.yaml'), permissions);
  const file = join(root, 'strapi-small.db');
  copyFileSync(join(conformanceKitDir(), 'db', 'strapi-small.db'), file);
  prepare?.(file);
  const removeFolder = () => rmSync(root, { recursive: true, force: true });
  if (client === 'sqlite') return { root, url: `sqlite:${file}`, drop: async () => removeFolder() };
  const database = await createTestDatabase(client);
  const source = openDatabase(`sqlite:${file}`);
  try {
    await copyDatabase({ from: source, to: database.knex, registry: await loadSchema(root) });
  } catch (error) {
    await database.drop();
    removeFolder();
    throw error;
  } finally {
    await source.destroy();
  }
  return { root, url: database.url, drop: async () => (await database.drop(), removeFolder()) };
}
