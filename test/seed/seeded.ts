/**
 * A fresh test database with the example schema's layout and the demo data, for the seed suites.
 */
import { loadSchema } from '../../plugin/schema/load.js';
import type { Registry } from '../../plugin/schema/registry.js';
import { seedDemoData, type SeedSummary } from '../../plugin/seed/seed.js';
import type { DatabaseClient } from '../../plugin/storage/database.js';
import { syncSchema } from '../../plugin/storage/sync.js';
import { repoRoot } from '../support/api.js';
import { createTestDatabase, type TestDatabase } from '../support/databases.js';

export interface SeededDatabase {
  readonly database: TestDatabase;
  readonly registry: Registry;
  readonly summary: SeedSummary;
}

/** The example schema of the repository. */
export function loadExampleSchema(): Promise<Registry> {
  return loadSchema(repoRoot);
}

/** A new database of `client`, synced and seeded; drop it with `database.drop()`. */
export async function createSeededDatabase(client: DatabaseClient): Promise<SeededDatabase> {
  const registry = await loadExampleSchema();
  const database = await createTestDatabase(client);
  try {
    await syncSchema(database.knex, registry);
    return { database, registry, summary: await seedDemoData(database.knex, registry) };
  } catch (error) {
    await database.drop();
    throw error;
  }
}
