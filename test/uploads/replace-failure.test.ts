/**
 * A replacement (`POST /api/upload?id=N` with a file) that fails partway leaves the old file
 * whole: the local provider stages the new objects beside the old ones and renames them into
 * place only once the row is written. And the local provider moves a file into its folder by a
 * rename, copying it only across devices (EXDEV). The storage's error, which the 503 does not
 * carry, goes to the `logger`. On SQLite and PostgreSQL.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { createLocalProvider, type StorageProvider } from '../../plugin/index.js';
import type { StoredObject } from '../../plugin/upload/provider.js';
import { testDatabaseKinds } from '../support/databases.js';
import { memoryLog } from './support/memory-log.js';
import { testFile, uploadApi, type UploadApi } from './support/upload-api.js';

/** Every object in the folder with a digest of its bytes. */
function contents(folder: string): Record<string, string> {
  return Object.fromEntries(readdirSync(folder).sort().map((name) => [name, createHash('sha256').update(readFileSync(join(folder, name))).digest('hex')]));
}

for (const kind of testDatabaseKinds()) {
  describe(`a replacement that fails partway (${kind.name})`, function () {
    this.timeout(60_000);
    let api: UploadApi;
    const folder = mkdtempSync(join(tmpdir(), 'content-api-replace-'));
    const local = createLocalProvider({ folder });
    /** The stage call that fails (counted from 1), or 0 for none. */
    let failAt = 0;
    let stages = 0;
    const provider: StorageProvider & { stage: typeof local.stage } = {
      name: 'local',
      upload: (object, content) => local.upload(object, content),
      delete: (object) => local.delete(object),
      stage: async (object: StoredObject, path: string) => {
        stages += 1;
        if (failAt && stages === failAt) throw new Error('the storage failed');
        return local.stage(object, path);
      },
    };
    const log = memoryLog();
    before(async () => (api = await uploadApi(kind.client, { provider }, {}, undefined, { logger: log.logger })));
    after(async () => {
      await api?.close();
      rmSync(folder, { recursive: true, force: true });
    });

    it('keeps the old row and every old object, byte for byte, and leaves no staged object behind', async function () {
      const uploaded = await api.as('editor', api.request.post('/api/upload')).attach('files', testFile('photo.jpg'), 'photo.jpg');
      expect(uploaded.status).to.equal(200);
      const id = uploaded.body[0].id as number;
      const [before, objects] = [(await api.as('editor', api.request.get(`/api/upload/files/${id}`))).body, contents(folder)];
      expect(Object.keys(objects)).to.have.length(5);

      // The file and two formats are staged, the third format fails.
      stages = 0;
      failAt = 4;
      const replaced = await api.as('editor', api.request.post(`/api/upload?id=${id}`)).attach('files', testFile('second.jpg'), 'second.jpg');
      failAt = 0;
      expect(replaced.status, JSON.stringify(replaced.body)).to.equal(503);
      expect((await api.as('editor', api.request.get(`/api/upload/files/${id}`))).body).to.deep.equal(before);
      expect(contents(folder)).to.deep.equal(objects);
      const errors = log.records().filter((record) => record.level === 50);
      expect(errors.map((record) => (record.err as { message?: string } | undefined)?.message)).to.deep.equal(['the storage failed']);
      expect(errors[0].msg).to.match(/^the file storage did not take the object [a-z]+_\S+\.jpg: answered 503$/);
    });

    it('replaces the objects in place once the row is written', async function () {
      const uploaded = await api.as('editor', api.request.post('/api/upload')).attach('files', testFile('photo.jpg'), 'again.jpg');
      const id = uploaded.body[0].id as number;
      const objects = contents(folder);
      const replaced = await api.as('editor', api.request.post(`/api/upload?id=${id}`)).attach('files', testFile('second.jpg'), 'second.jpg');
      expect(replaced.status).to.equal(200);
      const key = `${replaced.body.hash as string}.jpg`;
      const after = contents(folder);
      expect(after[key]).to.not.equal(objects[key]);
      expect(Object.keys(after).filter((name) => name.startsWith('.'))).to.deep.equal([]);
    });
  });
}

describe('the local provider moves a file into its folder', function () {
  it('by a rename on one file system: the source is gone, nothing copied', async function () {
    const folder = mkdtempSync(join(tmpdir(), 'content-api-local-'));
    try {
      const source = join(folder, 'source.bin');
      writeFileSync(source, 'bytes');
      const inode = statSync(source).ino;
      const staged = await createLocalProvider({ folder: join(folder, 'store') }).stage({ key: 'a_0123456789.bin', mime: 'application/octet-stream' }, source);
      await staged.commit();
      expect(existsSync(source)).to.equal(false);
      expect(statSync(join(folder, 'store', 'a_0123456789.bin')).ino).to.equal(inode);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('by a copy across devices (EXDEV)', async function () {
    if (!existsSync('/dev/shm') || statSync('/dev/shm').dev === statSync(tmpdir()).dev) this.skip();
    const source = mkdtempSync('/dev/shm/content-api-local-');
    const folder = mkdtempSync(join(tmpdir(), 'content-api-local-'));
    try {
      writeFileSync(join(source, 'source.bin'), 'across devices');
      const staged = await createLocalProvider({ folder }).stage({ key: 'b_0123456789.bin', mime: 'application/octet-stream' }, join(source, 'source.bin'));
      await staged.commit();
      expect(readFileSync(join(folder, 'b_0123456789.bin'), 'utf8')).to.equal('across devices');
    } finally {
      rmSync(source, { recursive: true, force: true });
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
