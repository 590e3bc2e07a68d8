/**
 * What an upload refuses, and that a refused or failed upload leaves nothing behind: no row, no
 * stored object, no temporary folder. On SQLite and PostgreSQL.
 */
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { testDatabaseKinds } from '../support/databases.js';
import { receivingFolders, testFile, uploadApi, type UploadApi } from './support/upload-api.js';

const MAX_FILE_BYTES = 50_000;
const MAX_FILES = 2;

for (const kind of testDatabaseKinds()) {
  describe(`upload limits and failures (${kind.name})`, function () {
    this.timeout(60_000);
    let api: UploadApi;
    let rowsBefore: number;

    before(async function () {
      api = await uploadApi(kind.client, { maxFileBytes: MAX_FILE_BYTES, maxFiles: MAX_FILES });
    });
    after(async () => api?.close());
    beforeEach(async () => {
      rowsBefore = await api.fileCount();
    });

    /** No row, no object and no temporary folder was added by the request. */
    async function nothingLeft(objectsBefore: string[], foldersBefore: string[]): Promise<void> {
      expect(await api.fileCount(), 'rows').to.equal(rowsBefore);
      expect(api.objects(), 'stored objects').to.deep.equal(objectsBefore);
      expect(receivingFolders(), 'temporary folders').to.deep.equal(foldersBefore);
    }

    async function refused(send: () => Promise<{ status: number; body: unknown }>, status: number, message: string | RegExp): Promise<void> {
      const objects = api.objects();
      const folders = receivingFolders();
      const response = await send();
      expect(response.status, JSON.stringify(response.body)).to.equal(status);
      const error = (response.body as { error: { message: string } }).error;
      if (typeof message === 'string') expect(error.message).to.equal(message);
      else expect(error.message).to.match(message);
      await nothingLeft(objects, folders);
    }

    const post = (token: 'editor' | 'uploader' = 'editor') => api.as(token, api.request.post('/api/upload'));

    it('refuses a file over maxFileBytes with a 413, the files before it included', async function () {
      await refused(() => post().attach('files', testFile('notes.txt'), 'small.txt').attach('files', Buffer.alloc(MAX_FILE_BYTES + 1), 'big.bin'), 413, 'FileTooBig');
    });

    it('takes a file of exactly maxFileBytes', async function () {
      const response = await post().attach('files', Buffer.alloc(MAX_FILE_BYTES, 0x62), 'exact.bin');
      expect(response.status).to.equal(200);
      expect(response.body[0].size).to.equal(50);
    });

    it('refuses more than maxFiles files with a 413', async function () {
      await refused(() => post().attach('files', testFile('notes.txt'), 'a.txt').attach('files', testFile('notes.txt'), 'b.txt').attach('files', testFile('notes.txt'), 'c.txt'), 413, /Too many files/);
    });

    it('refuses a declared Content-Length larger than the request could be before reading it', async function () {
      const objects = api.objects();
      const server = api.app.listen(4751, '127.0.0.1');
      try {
        await new Promise((resolve) => server.once('listening', resolve));
        const status = await new Promise<number>((resolve, reject) => {
          const request = httpRequest(
            { host: '127.0.0.1', port: (server.address() as AddressInfo).port, method: 'POST', path: '/api/upload', headers: { Authorization: 'Bearer editor-token', 'Content-Type': 'multipart/form-data; boundary=x', 'Content-Length': String(200 * 1024 * 1024) } },
            (response) => (response.resume(), resolve(response.statusCode ?? 0)),
          );
          request.on('error', reject);
          request.write('--x\r\n');
        });
        expect(status).to.equal(413);
      } finally {
        server.closeAllConnections();
        server.close();
      }
      expect(api.objects()).to.deep.equal(objects);
    });

    it('refuses an image that does not decode with a 400, nothing kept of the other files', async function () {
      const broken = Buffer.concat([testFile('photo.jpg').subarray(0, 2000), Buffer.alloc(2000)]);
      await refused(() => post().attach('files', testFile('notes.txt'), 'ok.txt').attach('files', broken, { filename: 'broken.jpg', contentType: 'image/jpeg' }), 400, 'File is not a valid image');
    });

    it('removes the stored objects when the rows cannot be written (an attachment to a missing entry)', async function () {
      await refused(
        () => post().attach('files', testFile('diagram.png'), 'diagram.png').field('ref', 'api::article.article').field('refId', '99999').field('field', 'gallery'),
        400,
        /Invalid refId 99999: no such entry/,
      );
    });

    it('refuses a file of a type the media attribute does not allow', async function () {
      await refused(() => post().attach('files', testFile('report.pdf'), 'report.pdf').field('ref', 'api::category.category').field('refId', '1').field('field', 'icon'), 400, /icon takes images/);
    });

    it('refuses ref, refId and field that name no media attribute of an entry', async function () {
      await refused(() => post().attach('files', testFile('notes.txt'), 'n.txt').field('ref', 'api::article.article').field('refId', '1').field('field', 'title'), 400, /no media attribute/);
      await refused(() => post().attach('files', testFile('notes.txt'), 'n.txt').field('ref', 'shared.seo').field('refId', '1').field('field', 'metaImage'), 400, /content type/);
      await refused(() => post().attach('files', testFile('notes.txt'), 'n.txt').field('ref', 'api::article.article').field('refId', 'one').field('field', 'gallery'), 400, /Invalid refId/);
    });

    it('refuses a multipart body that breaks off, and leaves nothing when the client goes away', async function () {
      const objects = api.objects();
      const folders = receivingFolders();
      const server = api.app.listen(4752, '127.0.0.1');
      try {
        await new Promise((resolve) => server.once('listening', resolve));
        const request = httpRequest({
          host: '127.0.0.1',
          port: 4752,
          method: 'POST',
          path: '/api/upload',
          headers: { Authorization: 'Bearer editor-token', 'Content-Type': 'multipart/form-data; boundary=x', 'Content-Length': '40000' },
        });
        request.on('error', () => undefined);
        request.write('--x\r\nContent-Disposition: form-data; name="files"; filename="half.txt"\r\nContent-Type: text/plain\r\n\r\n');
        request.write(Buffer.alloc(10_000, 0x61));
        await new Promise((resolve) => setTimeout(resolve, 200));
        request.destroy();
        // The server notices the closed connection, fails the request and removes what it received.
        for (let attempt = 0; attempt < 50 && receivingFolders().length > folders.length; attempt++) await new Promise((resolve) => setTimeout(resolve, 50));
      } finally {
        server.closeAllConnections();
        server.close();
      }
      await nothingLeft(objects, folders);
    });

    it('trusts the content over the declared type', async function () {
      const response = await post()
        .attach('files', testFile('icon.png'), { filename: 'looks-like-text.txt', contentType: 'text/plain' })
        .attach('files', testFile('notes.txt'), { filename: 'claims-png.png', contentType: 'image/png' });
      expect(response.status).to.equal(200);
      expect(response.body.map((file: { mime: string; width: number | null }) => [file.mime, file.width])).to.deep.equal([
        ['image/png', 120],
        ['application/octet-stream', null],
      ]);
    });

    it('answers a storage that fails with a 503 and removes what it had stored', async function () {
      const failing = await uploadApi(kind.client, { provider: flakyProvider(1) });
      try {
        const rows = await failing.fileCount();
        const response = await failing.as('editor', failing.request.post('/api/upload')).attach('files', testFile('photo.jpg'), 'photo.jpg');
        expect(response.status).to.equal(503);
        expect(await failing.fileCount()).to.equal(rows);
        expect(flakyStored.size, 'objects left in the failing storage').to.equal(0);
      } finally {
        await failing.close();
      }
    });
  });
}

const flakyStored = new Map<string, Buffer>();

/** A storage that keeps `accepted` objects in memory and fails every one after them. */
function flakyProvider(accepted: number) {
  let uploads = 0;
  return {
    name: 'flaky',
    async upload(object: { key: string }, content: NodeJS.ReadableStream) {
      const chunks: Buffer[] = [];
      for await (const chunk of content) chunks.push(chunk as Buffer);
      if (++uploads > accepted) throw new Error('storage down');
      flakyStored.set(object.key, Buffer.concat(chunks));
      return { url: `https://storage.example/${object.key}` };
    },
    async delete(object: { key: string }) {
      flakyStored.delete(object.key);
    },
  };
}
