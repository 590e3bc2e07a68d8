/**
 * mocha root hooks for the whole run: say which databases the suites run on, and release what
 * suites share (servers started by the CLI helper, the fixture databases) once, at the end.
 */
import { MYSQL_PENDING_SUITES, mysqlServerUrl, postgresServerUrl } from './databases.js';
import { stopAllServers } from './server.js';
import { dropFixtures } from './api.js';

/** The server URL without its password, for the banner. */
function describeServer(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(unparsable URL)';
  }
}

export const mochaHooks = {
  beforeAll(): void {
    const server = postgresServerUrl();
    console.log(`databases: ${server ? `sqlite, postgres (${describeServer(server)})` : 'sqlite (set TEST_DATABASE_URL to add postgres)'}`);
    const mysql = mysqlServerUrl();
    const pending = Object.keys(MYSQL_PENDING_SUITES).length;
    console.log(mysql ? `mysql: ${describeServer(mysql)}, except ${pending} suites listed in test/support/databases.ts` : 'mysql: not run (set TEST_MYSQL_URL to add it)');
  },
  async afterAll(): Promise<void> {
    await stopAllServers();
    await dropFixtures();
  },
};
