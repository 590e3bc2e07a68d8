/**
 * `copy` takes the media library along: the folders, the files' folder links, the folders' parent
 * links and Strapi's settings store (where the "API Uploads" folder's id is kept) arrive with their
 * ids, so a copied file keeps its folder, and an upload on the copy goes into the same folder,
 * its new rows after the copied ones.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import type { Knex } from 'knex';
import { loadSchema } from '../../plugin/schema/load.js';
import type { Registry } from '../../plugin/schema/registry.js';
import { copyDatabase } from '../../plugin/storage/copy.js';
import { openDatabase } from '../../plugin/storage/database.js';
import { serveApi } from '../support/api.js';
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from '../support/databases.js';
import { testFile, UPLOAD_PERMISSIONS } from '../uploads/support/upload-api.js';
import { freshFixture, type FreshFixture } from '../writes/support/fixture.js';

/** Each table with the columns compared (datetimes are checked by the copy suites). */
const MEDIA_LIBRARY: Readonly<Record<string, readonly string[]>> = {
  upload_folders: ['id', 'name', 'path_id', 'path'],
  files_folder_links: ['id', 'file_id', 'folder_id', 'file_order'],
  upload_folders_parent_links: ['id', 'folder_id', 'inv_folder_id', 'folder_order'],
  strapi_core_store_settings: ['id', 'key', 'value', 'type', 'environment', 'tag'],
};

async function mediaLibrary(knex: Knex): Promise<Record<string, Record<string, string | null>[]>> {
  const tables: Record<string, Record<string, string | null>[]> = {};
  for (const [table, columns] of Object.entries(MEDIA_LIBRARY)) {
    const rows = (await knex(table).select(columns).orderBy('id')) as Record<string, unknown>[];
    tables[table] = rows.map((row) => Object.fromEntries(columns.map((column) => [column, row[column] === null ? null : String(row[column])])));
  }
  return tables;
}

/** Uploads one file through the API on `database` as the editor; answers the new file's id. */
async function upload(root: string, database: string, name: string): Promise<number> {
  const storage = mkdtempSync(join(tmpdir(), 'content-api-upload-storage-'));
  const served = await serveApi({ root, database, watchPermissions: false, upload: { folder: storage } });
  try {
    const response = await served.request.post('/api/upload').set('Authorization', 'Bearer editor-token').attach('files', testFile('photo.jpg'), name);
    expect(response.status, JSON.stringify(response.body)).to.equal(200);
    return response.body[0].id as number;
  } finally {
    await served.close();
    rmSync(storage, { recursive: true, force: true });
  }
}

describe('copy: the media library', function () {
  this.timeout(180_000);
  let fixture: FreshFixture;
  let source: Knex;
  let registry: Registry;
  let expected: Awaited<ReturnType<typeof mediaLibrary>>;

  before(async function () {
    // A copy of the small fixture, two files uploaded into "API Uploads" and a folder inside it, as Strapi's media library makes one.
    fixture = await freshFixture('sqlite', UPLOAD_PERMISSIONS);
    registry = await loadSchema(fixture.root);
    await upload(fixture.root, fixture.url, 'first.jpg');
    await upload(fixture.root, fixture.url, 'second.jpg');
    source = openDatabase(fixture.url);
    const now = Date.now();
    await source('upload_folders').insert({ id: 2, name: 'Photos', path_id: 2, path: '/1/2', created_at: now, updated_at: now });
    await source('upload_folders_parent_links').insert({ folder_id: 2, inv_folder_id: 1, folder_order: 1 });
    expected = await mediaLibrary(source);
    expect(expected.upload_folders.map((row) => row.name)).to.deep.equal(['API Uploads', 'Photos']);
    expect(expected.files_folder_links).to.have.length(2);
    expect(expected.strapi_core_store_settings.map((row) => row.key)).to.include('plugin_upload_api-folder');
  });
  after(async () => {
    await source?.destroy();
    await fixture?.drop();
  });

  for (const kind of testDatabaseKinds()) {
    describe(`to ${kind.name}`, () => {
      let target: TestDatabase;
      before(async () => {
        target = await createTestDatabase(kind.client);
        await copyDatabase({ from: source, to: target.knex, registry });
      });
      after(() => target?.drop());

      it('copies the folders, the folder links and the settings store, row for row', async () => {
        expect(await mediaLibrary(target.knex)).to.deep.equal(expected);
      });

      it('an upload on the copy goes into the copied "API Uploads" folder, its rows after the copied ones', async () => {
        const id = await upload(fixture.root, target.url, 'third.jpg');
        const after = await mediaLibrary(target.knex);
        expect(after.upload_folders).to.deep.equal(expected.upload_folders);
        expect(after.files_folder_links.map((row) => [row.file_id, row.folder_id])).to.deep.equal([...expected.files_folder_links.map((row) => [row.file_id, row.folder_id]), [String(id), '1']]);
        expect(after.files_folder_links.at(-1)!.id).to.equal('3');
        const file = (await target.knex('files').where({ id }).first('folder_path')) as { folder_path: string };
        expect(file.folder_path).to.equal('/1');
      });
    });
  }
});
