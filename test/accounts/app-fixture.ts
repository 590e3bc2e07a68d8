/**
 * An app of test/apps/ as the accounts replay serves it: its strapi-src imported by the package's
 * importer, as it is (custom fields typed from plugins.json), into a folder of its own, over a new
 * database of the engine — empty, as the reference's was when the cases of test/accounts/apps/<app>
 * were recorded: the API that serves it first syncs it and gives it Strapi's stock roles.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importStrapiApp } from '../../plugin/schema/import-strapi.js';
import type { DatabaseClient } from '../../plugin/storage/database.js';
import { repoRoot } from '../support/api.js';
import { createTestDatabase } from '../support/databases.js';
import type { FreshFixture } from '../writes/support/fixture.js';

export const APP_RECORDINGS_DIR = join(repoRoot, 'test', 'accounts', 'apps');

/** The apps with a recording in test/accounts/apps. */
export function recordedApps(): string[] {
  if (!existsSync(APP_RECORDINGS_DIR)) return [];
  return readdirSync(APP_RECORDINGS_DIR).filter((app) => existsSync(join(APP_RECORDINGS_DIR, app, 'index.json'))).sort();
}

export async function appFixture(app: string, client: DatabaseClient): Promise<FreshFixture> {
  const source = join(repoRoot, 'test', 'apps', app, 'strapi-src');
  const plugins = JSON.parse(readFileSync(join(source, 'plugins.json'), 'utf8')) as { plugins: { customFields?: Record<string, string> }[] };
  const customFields = Object.assign({}, ...plugins.plugins.map((plugin) => plugin.customFields ?? {})) as Record<string, string>;
  const root = mkdtempSync(join(tmpdir(), `content-api-accounts-${app}-`));
  const removeFolder = () => rmSync(root, { recursive: true, force: true });
  try {
    // Every app of the corpus has users-permissions: its users log in whether or not a type refers to them.
    const report = await importStrapiApp(source, root, { customFields, users: true });
    if (report.problems.length > 0) throw new Error(`the importer does not take ${app}: ${report.problems.map((problem) => problem.reason).join('; ')}`);
  } catch (error) {
    removeFolder();
    throw error;
  }
  if (client === 'sqlite') return { root, url: `sqlite:${join(root, 'app.db')}`, drop: async () => removeFolder() };
  const database = await createTestDatabase(client);
  return { root, url: database.url, drop: async () => (await database.drop(), removeFolder()) };
}
