/**
 * An API with the media library over a fresh copy of the small fixture, its files in a
 * temporary folder, for the upload suites. Roles: `editor` (token `editor-token`) may do
 * everything, files included; `uploader` (`uploader-token`) may upload and read files and read
 * articles, not change them; `reader` (`reader-token`) may read files only; `public` may list
 * files (the example's `file: [find]`).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type supertest from 'supertest';
import { tokenHash } from '../../../plugin/access/tokens.js';
import type { ContentApiOptions, UploadOptions } from '../../../plugin/index.js';
import type { DatabaseClient } from '../../../plugin/storage/database.js';
import { serveApi, type ServedApi } from '../../support/api.js';
import { freshFixture, type FreshFixture } from '../../writes/support/fixture.js';
import { UPLOADS_DIR } from '../replay/recorded.js';

const SALT = 'upload-suite-salt-0001';
const ALL = '[find, findOne, preview, create, update, delete]';

export const UPLOAD_PERMISSIONS = `
roles:
  public:
    article: [find, findOne]
    file: [find]
  editor:
    article: ${ALL}
    category: ${ALL}
    file: [find, findOne, upload, destroy]
  uploader:
    article: [find, findOne]
    file: [find, findOne, upload]
  reader:
    file: [find, findOne]
tokens:
  - { name: editor, role: editor, hash: "${tokenHash('editor-token', SALT)}" }
  - { name: uploader, role: uploader, hash: "${tokenHash('uploader-token', SALT)}" }
  - { name: reader, role: reader, hash: "${tokenHash('reader-token', SALT)}" }
`;

export type Token = 'editor' | 'uploader' | 'reader' | null;

export interface UploadApi extends ServedApi {
  /** Where the local provider keeps the files. */
  readonly storage: string;
  /** A request with the role's token (none for public). */
  as(token: Token, test: supertest.Test): supertest.Test;
  /** The names in the storage folder. */
  objects(): string[];
  /** How many rows `files` has. */
  fileCount(): Promise<number>;
}

/** The bytes of a file of test/uploads/files. */
export function testFile(name: string): Buffer {
  return readFileSync(join(UPLOADS_DIR, 'files', name));
}

/**
 * `extraSchema`: more schema files (path under the schema folder → YAML text), synced into the copy
 * at start; `options`: more of the API's options (a `logger`).
 */
export async function uploadApi(
  client: DatabaseClient,
  upload: UploadOptions = {},
  extraSchema: Record<string, string> = {},
  permissions = UPLOAD_PERMISSIONS,
  options: Partial<ContentApiOptions> = {},
): Promise<UploadApi & { readonly fixture: FreshFixture }> {
  const fixture = await freshFixture(client, permissions);
  for (const [path, text] of Object.entries(extraSchema)) writeFileSync(join(fixture.root, path), text);
  const storage = mkdtempSync(join(tmpdir(), 'content-api-upload-storage-'));
  const served = await serveApi({ ...options, root: fixture.root, database: fixture.url, watchPermissions: false, upload: { folder: storage, ...upload } });
  return {
    ...served,
    fixture,
    storage,
    as: (token, test) => (token ? test.set('Authorization', `Bearer ${token}-token`) : test),
    objects: () => readdirSync(storage).sort(),
    fileCount: async () => Number(((await served.api.knex('files').count({ count: '*' }).first()) as { count: number | string }).count),
    close: async () => {
      await served.close();
      await fixture.drop();
      rmSync(storage, { recursive: true, force: true });
    },
  };
}

/**
 * The temporary folders this process's uploads are received in that exist now (none should
 * outlive its request). Other test processes share the tmpdir: their folders carry their pid.
 */
export function receivingFolders(): string[] {
  return readdirSync(tmpdir()).filter((name) => name.startsWith(`content-api-upload-${process.pid}-`));
}
