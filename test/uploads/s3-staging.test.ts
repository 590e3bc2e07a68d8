/**
 * The `s3` provider stages a replacement (`POST /api/upload?id=N` with a file) under
 * `<prefix>/.staging/` and copies the objects to their keys only once the row is written: a
 * replacement that fails partway leaves the old row and every old object byte for byte, one that
 * succeeds and an upload leave no staged object, and a copy that fails after the row is written
 * is a 503 whose cause goes to the `logger`, the staged objects removed; an object a failed
 * request could not remove is logged by key. Against s3rver on loopback, on every engine.
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { expect } from 'chai';
import { testDatabaseKinds } from '../support/databases.js';
import { memoryLog } from './support/memory-log.js';
import { startS3Server, type TestS3Server } from './support/s3-server.js';
import { testFile, uploadApi, type UploadApi } from './support/upload-api.js';

const PREFIX = 'site/media';
const STAGING = `${PREFIX}/.staging/`;

/** The upload of a staged object (not a copy, which is a PUT too). */
function isStagingPut(request: IncomingMessage): boolean {
  return request.method === 'PUT' && (request.url ?? '').includes('/.staging/') && !request.headers['x-amz-copy-source'];
}

function isCopy(request: IncomingMessage): boolean {
  return request.method === 'PUT' && request.headers['x-amz-copy-source'] !== undefined;
}

for (const kind of testDatabaseKinds()) {
  describe(`s3 provider: a staged replacement (${kind.name})`, function () {
    this.timeout(60_000);
    let s3: TestS3Server;
    let api: UploadApi;
    const log = memoryLog();

    before(async function () {
      s3 = await startS3Server();
      // One attempt per request: a failure the front answers is not retried into a success.
      api = await uploadApi(kind.client, { provider: { s3: s3.providerOptions({ prefix: PREFIX, clientConfig: { maxAttempts: 1 } }) } }, {}, undefined, { logger: log.logger });
    });
    after(async () => {
      await api?.close();
      await s3?.stop();
    });
    afterEach(() => {
      s3.failWhen(null);
      log.clear();
    });

    const post = (path = '/api/upload') => api.as('editor', api.request.post(path));
    const fileAnswer = async (id: number) => (await api.as('editor', api.request.get(`/api/upload/files/${id}`))).body as Record<string, unknown>;
    /** Every object in the bucket: its content type and a digest of its bytes. */
    const contents = async () => {
      const objects: Record<string, string> = {};
      for (const key of await s3.keys()) {
        const object = await s3.object(key);
        objects[key] = `${object?.contentType} ${createHash('sha256').update(object?.bytes ?? Buffer.alloc(0)).digest('hex')}`;
      }
      return objects;
    };
    const stagedKeys = async () => (await s3.keys()).filter((key) => key.startsWith(STAGING));
    /**
     * Whether the bucket holds what a file answer says, object by object: the file's size (in KB,
     * Strapi's) and each format's bytes. Images are re-encoded, so the sizes are what tells them apart.
     */
    const holds = async (file: { hash: string; ext: string; size: number; formats: Record<string, { hash: string; sizeInBytes: number }> | null }) => {
      const main = await s3.object(`${PREFIX}/${file.hash}${file.ext}`);
      const sizes = [Math.round(((main?.bytes.length ?? -1) / 1000) * 100) / 100 === file.size];
      for (const format of Object.values(file.formats ?? {})) sizes.push((await s3.object(`${PREFIX}/${format.hash}${file.ext}`))?.bytes.length === format.sizeInBytes);
      return sizes.every(Boolean) && sizes.length > 1;
    };
    const errorLines = () => log.records().filter((record) => record.level === 50);

    it('an upload stores each object under its key directly: no staged object, no copy', async function () {
      const seen = s3.requests.length;
      const response = await post().attach('files', testFile('photo.jpg'), 'photo.jpg');
      expect(response.status, JSON.stringify(response.body)).to.equal(200);
      const requests = s3.requests.slice(seen);
      expect(requests.filter((line) => line.includes('/.staging/')), requests.join('\n')).to.deep.equal([]);
      expect(await stagedKeys()).to.deep.equal([]);
    });

    it('a replacement that fails partway keeps the old row and every old object, byte for byte, and leaves no staged object', async function () {
      const uploaded = await post().attach('files', testFile('photo.jpg'), 'photo.jpg');
      expect(uploaded.status).to.equal(200);
      const id = uploaded.body[0].id as number;
      const [before, objects] = [await fileAnswer(id), await contents()];
      expect(Object.keys(objects).filter((key) => key.includes(uploaded.body[0].hash as string))).to.have.length(5);

      // The file and two formats are staged, the third format's upload fails.
      const staged = new Set<string>();
      s3.failWhen((request) => {
        if (!isStagingPut(request)) return false;
        const path = (request.url ?? '').split('?')[0];
        if (staged.size < 3) staged.add(path);
        return !staged.has(path);
      });
      const replaced = await post(`/api/upload?id=${id}`).attach('files', testFile('second.jpg'), 'second.jpg');
      expect(replaced.status, JSON.stringify(replaced.body)).to.equal(503);
      expect(replaced.body.error.name).to.equal('ServiceUnavailableError');
      expect(s3.failed).to.be.greaterThan(0);
      expect(staged.size).to.equal(3);
      expect(await fileAnswer(id)).to.deep.equal(before);
      expect(await contents()).to.deep.equal(objects);
    });

    it('logs the cause of the 503', async function () {
      const uploaded = await post().attach('files', testFile('notes.txt'), 'logged.txt');
      s3.failWhen(isStagingPut);
      const replaced = await post(`/api/upload?id=${uploaded.body[0].id as number}`).attach('files', testFile('notes.txt'), 'logged.txt');
      expect(replaced.status).to.equal(503);
      // What the answer does not say: the store's own error.
      expect(JSON.stringify(replaced.body)).not.to.include('internal error');
      const [line] = errorLines();
      expect(line?.msg, JSON.stringify(log.records())).to.match(/file storage did not take the object .*: answered 503/);
      expect((line.err as { message: string }).message).to.include('We encountered an internal error');
    });

    it('a replacement that succeeds puts the new bytes under the old keys and leaves no staged object', async function () {
      const uploaded = await post().attach('files', testFile('photo.jpg'), 'again.jpg');
      const id = uploaded.body[0].id as number;
      const key = `${PREFIX}/${uploaded.body[0].hash as string}.jpg`;
      const objects = await contents();
      const seen = s3.requests.length;
      const replaced = await post(`/api/upload?id=${id}`).attach('files', testFile('second.jpg'), 'second.jpg');
      expect(replaced.status, JSON.stringify(replaced.body)).to.equal(200);
      expect(replaced.body.url).to.equal(uploaded.body[0].url);
      expect((await s3.object(key))?.contentType).to.equal('image/jpeg');
      expect((await contents())[key]).to.not.equal(objects[key]);
      expect(await holds(replaced.body), JSON.stringify(replaced.body)).to.equal(true);
      // Staged, then copied into place.
      expect(s3.requests.slice(seen).some((line) => line.startsWith('PUT ') && line.includes('/.staging/'))).to.equal(true);
      expect(await stagedKeys()).to.deep.equal([]);
      expect(errorLines()).to.deep.equal([]);
    });

    it('a new upload the store fails part-way through: the objects it could not remove are logged by key', async function () {
      const keys = await s3.keys();
      // The thumbnail's PUT fails, and so do the deletes that would remove the file stored before it.
      s3.failWhen((request) => (request.method === 'PUT' && /\/thumbnail_/.test(request.url ?? '')) || request.method === 'DELETE');
      const response = await post().attach('files', testFile('photo.jpg'), 'stranded.jpg');
      expect(response.status, JSON.stringify(response.body)).to.equal(503);
      const stranded = (await s3.keys()).filter((key) => !keys.includes(key));
      expect(stranded).to.have.length.greaterThan(0);
      const prefix = 'an object stored for a failed request was not removed from the file storage: ';
      const named = errorLines().map((line) => String(line.msg)).filter((message) => message.startsWith(prefix));
      expect(named.map((message) => `${PREFIX}/${message.slice(prefix.length)}`).sort()).to.deep.equal(stranded);
    });

    it('a copy that fails after the row is written is a 503, logged, and the staged objects are removed', async function () {
      const uploaded = await post().attach('files', testFile('photo.jpg'), 'copied.jpg');
      const id = uploaded.body[0].id as number;
      let copies = 0;
      // The first copy goes through, the others fail.
      s3.failWhen((request) => isCopy(request) && ++copies > 1);
      const replaced = await post(`/api/upload?id=${id}`).attach('files', testFile('second.jpg'), 'second.jpg');
      expect(replaced.status, JSON.stringify(replaced.body)).to.equal(503);
      expect(s3.failed).to.be.greaterThan(0);
      expect(await stagedKeys()).to.deep.equal([]);
      expect(errorLines().map((line) => line.msg)).to.satisfy((messages: string[]) => messages.some((message) => /did not put the staged object .* in place: answered 503/.test(message)));
      // Sent again, the replacement puts every object right.
      s3.failWhen(null);
      const again = await post(`/api/upload?id=${id}`).attach('files', testFile('second.jpg'), 'second.jpg');
      expect(again.status).to.equal(200);
      expect(await holds(again.body), JSON.stringify(again.body)).to.equal(true);
      expect(await stagedKeys()).to.deep.equal([]);
    });
  });
}
