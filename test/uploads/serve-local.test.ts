/**
 * The local provider's files served by `api.routes()` at `/uploads/<key>`: type, ETag and 304,
 * Cache-Control, byte ranges, HEAD, and the headers that keep an uploaded SVG or HTML page from
 * running script in the API's origin; paths that could leave the folder serve nothing. Serving
 * reads no database, so this suite runs on SQLite only.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { repoRoot } from '../support/api.js';
import { testFile, uploadApi, type UploadApi } from './support/upload-api.js';

describe('uploads served from the local folder', function () {
  this.timeout(30_000);
  let api: UploadApi;
  const url: Record<string, string> = {};

  before(async function () {
    api = await uploadApi('sqlite');
    const response = await api
      .as('editor', api.request.post('/api/upload'))
      .attach('files', testFile('photo.jpg'), 'photo.jpg')
      .attach('files', testFile('logo.svg'), 'logo.svg')
      .attach('files', testFile('page.html'), 'page.html')
      .attach('files', testFile('notes.txt'), 'notes.txt');
    expect(response.status).to.equal(200);
    for (const file of response.body as { name: string; url: string; formats: Record<string, { url: string }> | null }[]) {
      url[file.name] = file.url;
      for (const [format, entry] of Object.entries(file.formats ?? {})) url[`${format}:${file.name}`] = entry.url;
    }
  });
  after(async () => api?.close());

  const bytesOf = (path: string) => readFileSync(join(api.storage, path.slice('/uploads/'.length)));
  const binary = (test: ReturnType<UploadApi['request']['get']>) =>
    test.buffer(true).parse((res, done) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => done(null, Buffer.concat(chunks)));
    });

  it('serves a file with its type, length, ETag, Last-Modified and a day of caching', async function () {
    const response = await binary(api.request.get(url['photo.jpg']));
    expect(response.status).to.equal(200);
    expect(response.headers['content-type']).to.equal('image/jpeg');
    expect(response.headers['content-length']).to.equal(String(bytesOf(url['photo.jpg']).length));
    expect(response.headers.etag).to.match(/^W\/"[0-9a-f]+-[0-9a-f]+"$/);
    expect(response.headers['last-modified']).to.be.a('string');
    expect(response.headers['cache-control']).to.equal('public, max-age=86400');
    expect(response.headers['accept-ranges']).to.equal('bytes');
    expect(response.headers['content-disposition']).to.equal(undefined);
    expect((response.body as Buffer).equals(bytesOf(url['photo.jpg']))).to.equal(true);
  });

  it('serves every format of an image', async function () {
    for (const format of ['thumbnail', 'large', 'medium', 'small']) {
      const response = await binary(api.request.get(url[`${format}:photo.jpg`]));
      expect(response.status, format).to.equal(200);
      expect((response.body as Buffer).equals(bytesOf(url[`${format}:photo.jpg`])), format).to.equal(true);
    }
  });

  it('answers 304 to a matching If-None-Match', async function () {
    const { headers } = await api.request.get(url['photo.jpg']);
    const response = await api.request.get(url['photo.jpg']).set('If-None-Match', headers.etag);
    expect(response.status).to.equal(304);
  });

  it('answers byte ranges with 206, and 416 past the end', async function () {
    const whole = bytesOf(url['photo.jpg']);
    const first = await binary(api.request.get(url['photo.jpg']).set('Range', 'bytes=0-9'));
    expect(first.status).to.equal(206);
    expect(first.headers['content-range']).to.equal(`bytes 0-9/${whole.length}`);
    expect((first.body as Buffer).equals(whole.subarray(0, 10))).to.equal(true);
    const last = await binary(api.request.get(url['photo.jpg']).set('Range', 'bytes=-5'));
    expect(last.status).to.equal(206);
    expect((last.body as Buffer).equals(whole.subarray(whole.length - 5))).to.equal(true);
    const open = await binary(api.request.get(url['photo.jpg']).set('Range', `bytes=${whole.length - 3}-`));
    expect((open.body as Buffer).equals(whole.subarray(whole.length - 3))).to.equal(true);
    const past = await api.request.get(url['photo.jpg']).set('Range', `bytes=${whole.length}-`);
    expect(past.status).to.equal(416);
    expect(past.headers['content-range']).to.equal(`bytes */${whole.length}`);
    const stale = await api.request.get(url['photo.jpg']).set('Range', 'bytes=0-9').set('If-Range', 'W/"stale"');
    expect(stale.status).to.equal(200);
  });

  it('follows RFC 9110 for other ranges: an invalid one or several get the whole file, a valid one past the end 416', async function () {
    const whole = bytesOf(url['notes.txt']);
    const size = whole.length;
    const ask = (range: string) => binary(api.request.get(url['notes.txt']).set('Range', range));
    for (const range of ['bytes=10-5', 'bytes=5-2', 'bytes=0-1,3-4', 'bytes=-5,0-1', 'items=0-5', 'bytes=abc', 'bytes=-', 'bytes 0-5']) {
      const response = await ask(range);
      expect(response.status, range).to.equal(200);
      expect(response.headers['content-range'], range).to.equal(undefined);
      expect((response.body as Buffer).equals(whole), range).to.equal(true);
    }
    for (const range of ['bytes=100000-', `bytes=${size}-${size + 10}`, 'bytes=-0']) {
      const response = await ask(range);
      expect(response.status, range).to.equal(416);
      expect(response.headers['content-range'], range).to.equal(`bytes */${size}`);
    }
    const partial: [string, number, number][] = [
      ['bytes=-5', size - 5, size - 1],
      ['bytes=3-3', 3, 3],
      ['BYTES=0-1', 0, 1],
      ['bytes=2-99999999999', 2, size - 1],
      ['bytes=-100000', 0, size - 1],
    ];
    for (const [range, start, end] of partial) {
      const response = await ask(range);
      expect(response.status, range).to.equal(206);
      expect(response.headers['content-range'], range).to.equal(`bytes ${start}-${end}/${size}`);
      expect((response.body as Buffer).equals(whole.subarray(start, end + 1)), range).to.equal(true);
    }
  });

  it('answers HEAD with the headers and no body', async function () {
    const response = await api.request.head(url['photo.jpg']);
    expect(response.status).to.equal(200);
    expect(response.headers['content-length']).to.equal(String(bytesOf(url['photo.jpg']).length));
  });

  it('sends SVG and HTML as attachments, under a policy that runs nothing, and never sniffed', async function () {
    for (const name of ['logo.svg', 'page.html']) {
      const response = await api.request.get(url[name]);
      expect(response.status, name).to.equal(200);
      expect(response.headers['content-disposition'], name).to.match(/^attachment; filename="/);
      expect(response.headers['content-security-policy'], name).to.equal("default-src 'none'; sandbox");
      expect(response.headers['x-content-type-options'], name).to.equal('nosniff');
    }
    expect((await api.request.get(url['logo.svg'])).headers['content-type']).to.equal('image/svg+xml');
    expect((await api.request.get(url['notes.txt'])).headers['content-disposition']).to.equal(undefined);
  });

  it('sends the policy docs/uploads.md documents on every answer, inline types included', async function () {
    const documented = /Content-Security-Policy: `([^`]+)`/.exec(readFileSync(join(repoRoot, 'docs/uploads.md'), 'utf8').replace(/\s*\n\s*/g, ' '));
    expect(documented?.[1]).to.equal("default-src 'none'; sandbox");
    const answers = [
      ...(await Promise.all(['photo.jpg', 'notes.txt', 'logo.svg'].map((name) => api.request.get(url[name])))),
      await api.request.get(url['photo.jpg']).set('Range', 'bytes=999999-'),
      await api.request.head(url['notes.txt']),
    ];
    for (const response of answers) expect(response.headers['content-security-policy'], String(response.status)).to.equal(documented![1]);
  });

  it('serves nothing outside the folder, nor the partial files of uploads under way', async function () {
    for (const path of ['/uploads/../package.json', '/uploads/%2e%2e%2fpackage.json', '/uploads/..%2F..%2Fetc%2Fpasswd', '/uploads/.hidden.part', '/uploads/', '/uploads/nope.jpg']) {
      const response = await api.request.get(path);
      expect(response.status, path).to.equal(404);
    }
  });

  it('does not serve a file once it is deleted', async function () {
    const list = await api.as('editor', api.request.get('/api/upload/files?filters[name][$eq]=notes.txt'));
    const [file] = list.body as { id: number; url: string }[];
    expect((await api.as('editor', api.request.delete(`/api/upload/files/${file.id}`))).status).to.equal(200);
    expect((await api.request.get(file.url)).status).to.equal(404);
  });
});
