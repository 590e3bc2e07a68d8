/**
 * What the storage suites start from: the example schema's registry, and the databases Strapi
 * 4.26.2 wrote (the conformance kit's fixtures) — as a private SQLite copy, or copied into a fresh
 * PostgreSQL or MariaDB database. The kit's files are never opened for writing.
 */
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Knex } from 'knex';
import { loadSchema } from '../../plugin/schema/load.js';
import type { Registry } from '../../plugin/schema/registry.js';
import { copyDatabase } from '../../plugin/storage/copy.js';
import { openDatabase, type DatabaseClient } from '../../plugin/storage/database.js';
import { conformanceKitDir } from '../support/conformance-kit.js';
import { createTestDatabase } from '../support/databases.js';

/** The repository: the nearest folder above this file with a package.json. */
function findRepoRoot(): string {
  let directory = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(directory, 'package.json'))) {
    const parent = dirname(directory);
    if (parent === directory) throw new Error('package.json not found above the test files');
    directory = parent;
  }
  return directory;
}

export const REPO_ROOT = findRepoRoot();

/** The example schema (content-types/ and components/ of the repository), which describes the fixture's app. */
export function loadExampleRegistry(): Promise<Registry> {
  return loadSchema(REPO_ROOT);
}

export type FixtureName = 'small' | 'large';

/** The kit's fixture file; read-only, copy it before opening. */
export function fixturePath(name: FixtureName): string {
  const path = join(conformanceKitDir(), 'db', `strapi-${name}.db`);
  if (!existsSync(path)) throw new Error(`fixture database ${path} is missing from the conformance kit`);
  return path;
}

/** A folder removed by `remove()`. */
export interface ScratchFolder {
  readonly path: string;
  remove(): void;
}

export function createScratchFolder(): ScratchFolder {
  const path = mkdtempSync(join(tmpdir(), 'content-api-storage-'));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

/** A private copy of a fixture file in `folder`; returns its path. */
export function copyFixtureFile(name: FixtureName, folder: ScratchFolder, fileName = `strapi-${name}.db`): string {
  const path = join(folder.path, fileName);
  copyFileSync(fixturePath(name), path);
  return path;
}

export interface FixtureDatabase {
  readonly client: DatabaseClient;
  readonly knex: Knex;
  /** Closes the connections and removes the database. */
  drop(): Promise<void>;
}

/**
 * A fixture's data in a database of the given kind: on SQLite a private copy of Strapi's file,
 * on PostgreSQL and MariaDB a fresh database filled by `copy` from such a copy.
 */
export async function openFixtureDatabase(client: DatabaseClient, name: FixtureName, registry: Registry): Promise<FixtureDatabase> {
  const folder = createScratchFolder();
  const file = copyFixtureFile(name, folder);
  if (client === 'sqlite') {
    const knex = openDatabase(`sqlite:${file}`);
    return { client, knex, drop: async () => (await knex.destroy(), folder.remove()) };
  }
  const database = await createTestDatabase(client);
  const source = openDatabase(`sqlite:${file}`);
  try {
    await copyDatabase({ from: source, to: database.knex, registry });
  } catch (error) {
    await database.drop();
    throw error;
  } finally {
    await source.destroy();
    folder.remove();
  }
  return { client, knex: database.knex, drop: () => database.drop() };
}

/**
 * Runs the enclosing suite in a time zone with an offset from UTC (and daylight saving time), so
 * that a datetime shifted by the process's time zone would show even where tests run in UTC.
 */
export function useOffsetTimeZone(): void {
  let original: string | undefined;
  before(() => {
    original = process.env.TZ;
    process.env.TZ = 'America/New_York';
  });
  after(() => {
    if (original === undefined) delete process.env.TZ;
    else process.env.TZ = original;
  });
}
