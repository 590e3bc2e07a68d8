/**
 * The databases a suite runs on: SQLite always, PostgreSQL too when TEST_DATABASE_URL (or
 * DATABASE_URL) names a server. Each test database is created empty and dropped afterwards
 * (the testing kit's throwaway databases).
 */
import type { DatabaseClient } from '../../plugin/storage/database.js';
import { postgresServerUrl } from '../../plugin/testing/database.js';

export { createTestDatabase, postgresServerUrl, withDatabaseName, type TestDatabase } from '../../plugin/testing/database.js';

export interface TestDatabaseKind {
  readonly client: DatabaseClient;
  /** For describe() titles: `sqlite` or `postgres`. */
  readonly name: string;
}

/** The kinds of database every database suite is run on. */
export function testDatabaseKinds(): TestDatabaseKind[] {
  const kinds: TestDatabaseKind[] = [{ client: 'sqlite', name: 'sqlite' }];
  if (postgresServerUrl()) kinds.push({ client: 'postgres', name: 'postgres' });
  return kinds;
}
