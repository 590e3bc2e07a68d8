/**
 * The `s3` provider against an S3-compatible server on loopback (s3rver): the objects a file and
 * its formats become (keys under the prefix, content types, bytes), the rows Strapi's aws-s3
 * provider writes (url, `provider: aws-s3`, no provider_metadata), replacing and deleting, and
 * that a request that fails — the store down or failing part-way, a limit, the client gone —
 * leaves no row and no object. On SQLite, PostgreSQL and MariaDB.
 */
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { testDatabaseKinds } from '../support/databases.js';
import { startS3Server, type TestS3Server } from './support/s3-server.js';
import { receivingFolders, testFile, uploadApi, type UploadApi } from './support/upload-api.js';

const PREFIX = 'site/media';
/** Room for a file of several 5 MB parts: a multipart upload. */
const MAX_FILE_BYTES = 16 * 1024 * 1024;

interface FileAnswer {
  id: number;
  hash: string;
  ext: string;
  mime: string;
  url: string;
  provider: string;
  provider_metadata: unknown;
  formats: Record<string, { hash: string; ext: string; mime: string; url: string; sizeInBytes: number }> | null;
}

for (const kind of testDatabaseKinds()) {
  describe(`s3 upload provider (${kind.name})`, function () {
    this.timeout(60_000);
    let s3: TestS3Server;
    let api: UploadApi;

    before(async function () {
      s3 = await startS3Server();
      api = await uploadApi(kind.client, { provider: { s3: s3.providerOptions({ prefix: PREFIX }) }, maxFileBytes: MAX_FILE_BYTES });
    });
    after(async () => {
      await api?.close();
      await s3?.stop();
    });
    afterEach(async () => {
      s3.failWhen(null);
      await s3.up();
    });

    const post = (path = '/api/upload') => api.as('editor', api.request.post(path));
    const keyOf = (hash: string, ext: string) => `${PREFIX}/${hash}${ext}`;
    const bucketUrl = () => `${s3.endpoint}/${s3.bucket}/`;
    /** Every key a file answer names: the file's and each format's. */
    const keysOf = (file: FileAnswer) => [keyOf(file.hash, file.ext), ...Object.values(file.formats ?? {}).map((format) => keyOf(format.hash, format.ext))];

    it('stores a file and its formats under the prefix, with their types, and writes the row as Strapi does', async function () {
      const keysBefore = await s3.keys();
      const response = await post().attach('files', testFile('photo.jpg'), 'harbour.jpg');
      expect(response.status, JSON.stringify(response.body)).to.equal(200);
      const [file] = response.body as FileAnswer[];
      expect(file.provider).to.equal('aws-s3');
      expect(file.provider_metadata).to.equal(null);
      expect(file.url).to.equal(`${bucketUrl()}${keyOf(file.hash, '.jpg')}`);
      expect(Object.keys(file.formats ?? {})).to.include('thumbnail');
      for (const format of Object.values(file.formats ?? {})) {
        expect(format.url).to.equal(`${bucketUrl()}${keyOf(format.hash, '.jpg')}`);
        const stored = await s3.object(keyOf(format.hash, format.ext));
        expect(stored?.contentType).to.equal('image/jpeg');
        expect(stored?.bytes.length).to.equal(format.sizeInBytes);
      }
      expect(await s3.keys()).to.deep.equal([...keysBefore, ...keysOf(file)].sort());
      const row = await api.api.knex('files').where({ id: file.id }).first('provider', 'provider_metadata', 'url');
      expect(row).to.deep.equal({ provider: 'aws-s3', provider_metadata: null, url: file.url });
    });

    it('stores several files of one request, each with its content type and bytes', async function () {
      const keysBefore = await s3.keys();
      const response = await post().attach('files', testFile('diagram.png'), 'diagram.png').attach('files', testFile('notes.txt'), 'notes.txt').attach('files', testFile('report.pdf'), 'report.pdf');
      expect(response.status, JSON.stringify(response.body)).to.equal(200);
      const files = response.body as FileAnswer[];
      expect(files.map((file) => file.mime)).to.deep.equal(['image/png', 'text/plain', 'application/pdf']);
      for (const [index, name] of ['diagram.png', 'notes.txt', 'report.pdf'].entries()) {
        const stored = await s3.object(keyOf(files[index].hash, files[index].ext));
        expect(stored?.contentType).to.equal(files[index].mime);
        if (name !== 'diagram.png') expect(stored?.bytes.equals(testFile(name)), name).to.equal(true);
      }
      expect(await s3.keys()).to.deep.equal([...keysBefore, ...files.flatMap(keysOf)].sort());
    });

    it('replaces a file: new content under the same key, the formats it no longer has removed', async function () {
      const [photo] = (await post().attach('files', testFile('photo.jpg'), 'photo.jpg')).body as FileAnswer[];
      const photoKeys = keysOf(photo);
      expect(photoKeys.length).to.be.greaterThan(1);
      const replaced = await post(`/api/upload?id=${photo.id}`).attach('files', testFile('notes.txt'), 'notes.txt');
      expect(replaced.status, JSON.stringify(replaced.body)).to.equal(200);
      expect((replaced.body as FileAnswer).url).to.equal(photo.url);
      const keys = await s3.keys();
      expect(keys).to.include(photoKeys[0]);
      for (const formatKey of photoKeys.slice(1)) expect(keys, formatKey).not.to.include(formatKey);
      const stored = await s3.object(photoKeys[0]);
      expect(stored?.bytes.equals(testFile('notes.txt'))).to.equal(true);
      expect(stored?.contentType).to.equal('text/plain');
    });

    it('deletes a file: every object of it is removed from the bucket', async function () {
      const [photo] = (await post().attach('files', testFile('second.jpg'), 'second.jpg')).body as FileAnswer[];
      const keys = keysOf(photo);
      expect(await s3.keys()).to.include.members(keys);
      const response = await api.as('editor', api.request.delete(`/api/upload/files/${photo.id}`));
      expect(response.status).to.equal(200);
      const left = await s3.keys();
      for (const key of keys) expect(left, key).not.to.include(key);
    });

    it('answers a 503 when the store is down, and keeps no row and no object', async function () {
      const rows = await api.fileCount();
      const keys = await s3.keys();
      await s3.down();
      const response = await post().attach('files', testFile('photo.jpg'), 'photo.jpg');
      expect(response.status, JSON.stringify(response.body)).to.equal(503);
      expect(response.body.error.name).to.equal('ServiceUnavailableError');
      expect(await api.fileCount()).to.equal(rows);
      expect(await s3.keys()).to.deep.equal(keys);
    });

    it('answers a 503 when the store fails part-way (a 5xx on a format), and removes the objects already stored', async function () {
      const rows = await api.fileCount();
      const keys = await s3.keys();
      // The file itself is stored first, then each format: the thumbnail's PUT fails.
      s3.failWhen((request) => request.method === 'PUT' && /\/thumbnail_/.test(request.url ?? ''));
      const response = await post().attach('files', testFile('notes.txt'), 'first.txt').attach('files', testFile('photo.jpg'), 'photo.jpg');
      expect(response.status, JSON.stringify(response.body)).to.equal(503);
      expect(s3.failed).to.be.greaterThan(0);
      expect(await api.fileCount()).to.equal(rows);
      expect(await s3.keys()).to.deep.equal(keys);
    });

    it('aborts a multipart upload whose part fails: a 503, no object, no upload left open', async function () {
      const rows = await api.fileCount();
      const keys = await s3.keys();
      const seen = s3.requests.length;
      s3.failWhen((request) => request.method === 'PUT' && /[?&]partNumber=2(&|$)/.test(request.url ?? ''));
      const response = await post().attach('files', Buffer.alloc(12 * 1024 * 1024, 0x61), 'large.bin');
      expect(response.status, JSON.stringify(response.body)).to.equal(503);
      expect(s3.failed).to.be.greaterThan(0);
      const requests = s3.requests.slice(seen);
      const uploadId = /[?&]uploadId=([^&]+)/.exec(requests.find((line) => line.startsWith('PUT ') && line.includes('partNumber=1')) ?? '')?.[1];
      expect(uploadId, requests.join('\n')).to.be.a('string');
      // AbortMultipartUpload, which discards the parts already sent.
      expect(requests.some((line) => line.startsWith('DELETE ') && line.includes(`uploadId=${uploadId}`)), requests.join('\n')).to.equal(true);
      expect(await api.fileCount()).to.equal(rows);
      expect(await s3.keys()).to.deep.equal(keys);
    });

    it('refuses a file over maxFileBytes with a 413 and stores nothing', async function () {
      const rows = await api.fileCount();
      const keys = await s3.keys();
      const folders = receivingFolders();
      const response = await post().attach('files', testFile('notes.txt'), 'small.txt').attach('files', Buffer.alloc(MAX_FILE_BYTES + 1), 'big.bin');
      expect(response.status).to.equal(413);
      expect(await api.fileCount()).to.equal(rows);
      expect(await s3.keys()).to.deep.equal(keys);
      expect(receivingFolders()).to.deep.equal(folders);
    });

    it('stores nothing when the client goes away mid-upload', async function () {
      const rows = await api.fileCount();
      const keys = await s3.keys();
      const folders = receivingFolders();
      const server = api.app.listen(0, '127.0.0.1');
      try {
        await new Promise((resolve) => server.once('listening', resolve));
        const request = httpRequest({
          host: '127.0.0.1',
          port: (server.address() as AddressInfo).port,
          method: 'POST',
          path: '/api/upload',
          headers: { Authorization: 'Bearer editor-token', 'Content-Type': 'multipart/form-data; boundary=x', 'Content-Length': '90000' },
        });
        request.on('error', () => undefined);
        request.write('--x\r\nContent-Disposition: form-data; name="files"; filename="whole.txt"\r\nContent-Type: text/plain\r\n\r\nall of it\r\n');
        request.write('--x\r\nContent-Disposition: form-data; name="files"; filename="half.txt"\r\nContent-Type: text/plain\r\n\r\n');
        request.write(Buffer.alloc(20_000, 0x61));
        await new Promise((resolve) => setTimeout(resolve, 200));
        request.destroy();
        for (let attempt = 0; attempt < 50 && receivingFolders().length > folders.length; attempt++) await new Promise((resolve) => setTimeout(resolve, 50));
      } finally {
        server.closeAllConnections();
        server.close();
      }
      expect(await api.fileCount()).to.equal(rows);
      expect(await s3.keys()).to.deep.equal(keys);
      expect(receivingFolders()).to.deep.equal(folders);
    });

    it('answers URLs on publicBaseUrl when one is set', async function () {
      const cdn = await uploadApi(kind.client, { provider: { s3: s3.providerOptions({ prefix: PREFIX, publicBaseUrl: 'https://cdn.example.com/assets/' }) } });
      try {
        const response = await cdn.as('editor', cdn.request.post('/api/upload')).attach('files', testFile('photo.jpg'), 'photo.jpg');
        expect(response.status, JSON.stringify(response.body)).to.equal(200);
        const [file] = response.body as FileAnswer[];
        expect(file.url).to.equal(`https://cdn.example.com/assets/${keyOf(file.hash, '.jpg')}`);
        const thumbnail = file.formats?.thumbnail;
        expect(thumbnail?.url).to.equal(`https://cdn.example.com/assets/${keyOf(thumbnail?.hash ?? '', '.jpg')}`);
        expect(await s3.keys()).to.include.members(keysOf(file));
      } finally {
        await cdn.close();
      }
    });
  });
}
