/**
 * The databases a suite runs on: SQLite always, PostgreSQL too when TEST_DATABASE_URL (or
 * DATABASE_URL) names a server, MariaDB/MySQL when TEST_MYSQL_URL does — except for the suites
 * listed in MYSQL_PENDING_SUITES below. Each test database is created empty and dropped afterwards
 * (the testing kit's throwaway databases).
 */
import { sep } from 'node:path';
import type { DatabaseClient } from '../../plugin/storage/database.js';
import { mysqlServerUrl, postgresServerUrl } from '../../plugin/testing/database.js';

export { createTestDatabase, mysqlServerUrl, postgresServerUrl, withDatabaseName, type TestDatabase } from '../../plugin/testing/database.js';

export interface TestDatabaseKind {
  readonly client: DatabaseClient;
  /** For describe() titles: `sqlite`, `postgres` or `mysql`. */
  readonly name: string;
}

/**
 * The suites (a folder, or one file, under test/) that do not run on MariaDB yet, each with the
 * reason. This is the only place a suite is left out of an engine: every other suite that calls
 * testDatabaseKinds() runs on MariaDB when TEST_MYSQL_URL is set.
 */
export const MYSQL_PENDING_SUITES: Readonly<Record<string, string>> = {
};

/** The kinds of database every database suite is run on. */
export function testDatabaseKinds(): TestDatabaseKind[] {
  const kinds: TestDatabaseKind[] = [{ client: 'sqlite', name: 'sqlite' }];
  if (postgresServerUrl()) kinds.push({ client: 'postgres', name: 'postgres' });
  if (mysqlServerUrl() && mysqlPendingReason(callingSuite()) === null) kinds.push({ client: 'mysql', name: 'mysql' });
  return kinds;
}

/** Why `suite` (`test/api/sort.test.ts`) does not run on MariaDB yet, or null when it does. */
export function mysqlPendingReason(suite: string | null): string | null {
  if (suite === null) return null;
  const entry = Object.entries(MYSQL_PENDING_SUITES).find(([prefix]) => suite.startsWith(prefix));
  return entry ? entry[1] : null;
}

/** The test file that asked, as `test/<folder>/<name>.test.ts`, read from the call stack. */
function callingSuite(): string | null {
  for (const line of (new Error().stack ?? '').split('\n')) {
    const match = /(?:file:\/\/)?(\/[^\s:()]+\/dist\/(test\/[^\s:()]+\.test)\.js)/.exec(line);
    if (match) return match[2].split(sep).join('/') + '.ts';
  }
  return null;
}

