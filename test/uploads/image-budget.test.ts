/**
 * The pixel budget of image work (`maxImagePixels`) and what a replacement writes, on SQLite,
 * PostgreSQL and MariaDB: an image whose header declares more pixels than the budget is stored as
 * a plain file, fast, never decoded (the 16,000 × 16,000 PNG bomb of 31 KB took 14 core-seconds
 * and 1.2 GB of memory before); an image within it still gets its formats; a replacement rewrites
 * every column of the content, so a text file replacing an image has no width or height. And an
 * image worker that dies fails its file only.
 * The memory and the reads beside bombs: image-bomb-serve.test.ts.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import sharp from 'sharp';
import { processTree } from '../../bench/proc-cpu.js';
import { testDatabaseKinds } from '../support/databases.js';
import { bombPng } from './support/image-bombs.js';
import { testFile, uploadApi, type UploadApi } from './support/upload-api.js';

/** Generous for a loaded 2-core machine: the header is read in about a millisecond, decoding took 14 s. */
const BOMB_MS = 5_000;

interface FileAnswer {
  id: number;
  mime: string;
  ext: string;
  hash: string;
  width: number | null;
  height: number | null;
  size: number;
  formats: Record<string, { width: number; height: number }> | null;
}

function digest(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

for (const kind of testDatabaseKinds()) {
  describe(`the image budget and replaced content (${kind.name})`, function () {
    this.timeout(120_000);
    let api: UploadApi;
    let bomb: Buffer;

    before(async () => {
      bomb = await bombPng();
      api = await uploadApi(kind.client);
    });
    after(async () => api?.close());

    async function upload(bytes: Buffer, filename: string): Promise<FileAnswer> {
      const response = await api.as('editor', api.request.post('/api/upload')).attach('files', bytes, filename);
      expect(response.status, JSON.stringify(response.body)).to.equal(200);
      return response.body[0] as FileAnswer;
    }

    async function replace(id: number, bytes: Buffer, filename: string): Promise<FileAnswer> {
      const response = await api.as('editor', api.request.post(`/api/upload?id=${id}`)).attach('files', bytes, filename);
      expect(response.status, JSON.stringify(response.body)).to.equal(200);
      const read = await api.as('editor', api.request.get(`/api/upload/files/${id}`));
      expect(read.status).to.equal(200);
      expect(read.body, 'the answer of the replacement is the row read back').to.deep.include({ width: response.body.width, height: response.body.height, mime: response.body.mime });
      return read.body as FileAnswer;
    }

    it('stores an image over the budget as a plain file, as sent, with the dimensions of its header, fast', async function () {
      const started = performance.now();
      const file = await upload(bomb, 'bomb.png');
      const elapsed = performance.now() - started;
      expect(file).to.include({ mime: 'image/png', ext: '.png', width: 16_000, height: 16_000, formats: null });
      expect(file.size).to.equal(Math.round(bomb.length / 10) / 100);
      const stored = readFileSync(join(api.storage, `${file.hash}${file.ext}`));
      expect(digest(stored), 'the stored object is the sent file, not re-encoded').to.equal(digest(bomb));
      expect(api.objects().filter((name) => name.includes(file.hash)), 'no formats were made').to.deep.equal([`${file.hash}.png`]);
      expect(elapsed, 'ms to upload the bomb').to.be.below(BOMB_MS);
    });

    it('still makes the formats of an image within the budget', async function () {
      const file = await upload(testFile('photo.jpg'), 'photo.jpg');
      expect(file).to.include({ mime: 'image/jpeg', width: 1600, height: 1200 });
      // PostgreSQL's jsonb keeps its own key order.
      expect(Object.keys(file.formats ?? {})).to.have.members(['thumbnail', 'large', 'medium', 'small']);
      expect(file.formats!.large).to.include({ width: 1000, height: 750 });
    });

    it('replacing an image by an HTML file clears its width, height and formats', async function () {
      const image = await upload(testFile('photo.jpg'), 'cover.jpg');
      expect(image.width).to.equal(1600);
      const replaced = await replace(image.id, testFile('page.html'), 'page.html');
      expect(replaced).to.include({ mime: 'text/html', width: null, height: null });
      // `{}`, the value Strapi writes on every replacement without formats.
      expect(replaced.formats).to.deep.equal({});
      const objects = api.objects().filter((name) => name.includes(image.hash));
      expect(objects, 'the old formats are removed').to.deep.equal([`${image.hash}.jpg`]);
      const row = (await api.api.knex('files').where({ id: image.id }).first('width', 'height', 'mime')) as Record<string, unknown>;
      expect(row).to.deep.equal({ width: null, height: null, mime: 'text/html' });
    });

    it('replacing an image by a text file, and that by an image, writes each content’s columns', async function () {
      const image = await upload(testFile('diagram.png'), 'diagram.png');
      const text = await replace(image.id, testFile('notes.txt'), 'notes.txt');
      expect(text).to.include({ mime: 'text/plain', width: null, height: null });
      const again = await replace(image.id, testFile('second.jpg'), 'second.jpg');
      expect(again).to.include({ mime: 'image/jpeg', width: 1200, height: 900 });
      expect(Object.keys(again.formats ?? {})).to.have.members(['thumbnail', 'large', 'medium', 'small']);
    });

    it('replacing an image by one over the budget keeps the header’s dimensions and drops the old formats', async function () {
      const image = await upload(testFile('photo.jpg'), 'poster.jpg');
      const replaced = await replace(image.id, bomb, 'bomb.png');
      expect(replaced).to.include({ mime: 'image/png', width: 16_000, height: 16_000 });
      expect(replaced.formats).to.deep.equal({});
      expect(api.objects().filter((name) => name.includes(image.hash))).to.deep.equal([`${image.hash}.jpg`]);
    });
  });
}

describe('the image budget option (sqlite)', function () {
  this.timeout(60_000);
  let api: UploadApi;
  // photo.jpg has 1600 × 1200 = 1,920,000 pixels; banner.webp 600 × 400 = 240,000, which count three times.
  before(async () => (api = await uploadApi('sqlite', { maxImagePixels: 1_919_999 })));
  after(async () => api?.close());

  it('keeps an image one pixel over the budget as a plain file and processes one within it', async function () {
    const over = await api.as('editor', api.request.post('/api/upload')).attach('files', testFile('photo.jpg'), 'photo.jpg');
    expect(over.status).to.equal(200);
    expect(over.body[0]).to.include({ width: 1600, height: 1200, formats: null });
    expect(digest(readFileSync(join(api.storage, `${over.body[0].hash}.jpg`)))).to.equal(digest(testFile('photo.jpg')));
    const within = await api.as('editor', api.request.post('/api/upload')).attach('files', testFile('second.jpg'), 'second.jpg');
    expect(Object.keys(within.body[0].formats)).to.deep.equal(['thumbnail', 'large', 'medium', 'small']);
  });

  it('counts a WebP three times its pixels', async function () {
    const small = await uploadApi('sqlite', { maxImagePixels: 3 * 240_000 - 1 });
    try {
      const webp = await small.as('editor', small.request.post('/api/upload')).attach('files', testFile('banner.webp'), 'banner.webp');
      expect(webp.body[0]).to.include({ width: 600, height: 400, formats: null });
      const png = await small.as('editor', small.request.post('/api/upload')).attach('files', await sharp(testFile('banner.webp')).png().toBuffer(), 'banner.png');
      expect(Object.keys(png.body[0].formats)).to.deep.equal(['thumbnail', 'small']);
    } finally {
      await small.close();
    }
  });
});

describe('an image worker that dies (sqlite)', function () {
  this.timeout(60_000);
  let api: UploadApi;
  before(async () => (api = await uploadApi('sqlite')));
  after(async () => api?.close());

  /** This process's image workers alive now. */
  function imageWorkers(): number[] {
    return processTree(process.pid).filter((pid) => pid !== process.pid && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('image-worker.js'));
  }

  it('fails its file with a 400, stores nothing, and the next image gets a new worker', async function () {
    if (!existsSync('/proc/self/status')) this.skip();
    const rows = await api.fileCount();
    const sending = api.as('editor', api.request.post('/api/upload')).attach('files', testFile('photo.jpg'), 'photo.jpg').then((response) => response);
    let killed = 0;
    for (const deadline = Date.now() + 10_000; !killed && Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 5))) {
      for (const pid of imageWorkers()) (process.kill(pid, 'SIGKILL'), killed++);
    }
    expect(killed, 'image workers killed').to.equal(1);
    const failed = await sending;
    expect(failed.status, JSON.stringify(failed.body)).to.equal(400);
    expect(failed.body.error.message).to.match(/^File is not a valid image/);
    expect(await api.fileCount()).to.equal(rows);
    const next = await api.as('editor', api.request.post('/api/upload')).attach('files', testFile('photo.jpg'), 'photo.jpg');
    expect(next.status).to.equal(200);
    expect(Object.keys(next.body[0].formats)).to.have.members(['thumbnail', 'large', 'medium', 'small']);
  });
});
