/**
 * An upload is streamed to storage, never held whole in memory: `content-api serve` (a child
 * process, storage chosen by UPLOAD_PROVIDER and the S3_* variables) receives a 300 MB file,
 * generated as it is sent, and its peak resident memory (VmHWM) grows by much less than the file
 * whatever the provider — `local`, and `s3` against s3rver on loopback. On SQLite only: the
 * database sees one row either way. Linux only (it reads /proc).
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { expect } from 'chai';
import { startServer, type RunningServer } from '../support/server.js';
import { freshFixture, type FreshFixture } from '../writes/support/fixture.js';
import { startS3Server, type TestS3Server } from './support/s3-server.js';
import { UPLOAD_PERMISSIONS } from './support/upload-api.js';

const MB = 1024 * 1024;
const WARM_UP_BYTES = 20 * MB;
const LARGE_BYTES = 300 * MB;
/** Peak growth allowed from the warm-up to the large file: far below the 280 MB more it holds. */
const MAX_GROWTH_BYTES = 96 * MB;

/** The process's peak resident memory in bytes (Linux). */
function peakRss(pid: number): number {
  const match = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!match) throw new Error(`no VmHWM for process ${pid}`);
  return Number(match[1]) * 1024;
}

/** POSTs one file of `bytes` bytes, made 1 MB at a time as the socket takes it; the answer's status and body. */
function uploadGenerated(baseUrl: string, bytes: number, filename: string): Promise<{ status: number; body: string }> {
  const boundary = 'generated-boundary';
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const chunk = Buffer.alloc(MB);
  for (let index = 0; index < MB; index++) chunk[index] = (index * 31) & 0xff;
  const url = new URL('/api/upload', baseUrl);
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      { host: url.hostname, port: url.port, method: 'POST', path: url.pathname, headers: { Authorization: 'Bearer editor-token', 'Content-Type': `multipart/form-data; boundary=${boundary}`, 'Content-Length': String(head.length + bytes + tail.length) } },
      (response) => {
        let body = '';
        response.on('data', (data: Buffer) => (body += data.toString('utf8')));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      },
    );
    request.on('error', reject);
    (async () => {
      request.write(head);
      for (let sent = 0; sent < bytes; sent += chunk.length) {
        const part = bytes - sent < chunk.length ? chunk.subarray(0, bytes - sent) : chunk;
        if (!request.write(part)) await new Promise((drained) => request.once('drain', drained));
      }
      request.end(tail);
    })().catch(reject);
  });
}

describe('uploads are streamed: memory does not grow with the file (serve, sqlite)', function () {
  this.timeout(240_000);

  before(function () {
    if (!existsSync('/proc/self/status')) this.skip();
  });

  for (const provider of ['local', 's3'] as const) {
    describe(`${provider} provider`, function () {
      let fixture: FreshFixture;
      let s3: TestS3Server | null = null;
      let server: RunningServer;

      before(async function () {
        fixture = await freshFixture('sqlite', UPLOAD_PERMISSIONS);
        s3 = provider === 's3' ? await startS3Server() : null;
        const storage = s3
          ? { UPLOAD_PROVIDER: 's3', S3_BUCKET: s3.bucket, S3_ENDPOINT: s3.endpoint, S3_FORCE_PATH_STYLE: 'true', S3_REGION: 'us-east-1', S3_PREFIX: 'big', AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER' }
          : { UPLOAD_PROVIDER: 'local' };
        server = await startServer({ database: fixture.url, root: fixture.root, args: ['--quiet'], env: { ...storage, UPLOAD_MAX_FILE_BYTES: String(LARGE_BYTES + MB), AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' } });
      });
      after(async () => {
        await server?.stop();
        await s3?.stop();
        await fixture?.drop();
      });

      it(`stores a ${LARGE_BYTES / MB} MB file whole with the peak RSS growing by less than ${MAX_GROWTH_BYTES / MB} MB`, async function () {
        const pid = server.child.pid!;
        const warm = await uploadGenerated(server.baseUrl, WARM_UP_BYTES, 'warm-up.bin');
        expect(warm.status, warm.body).to.equal(200);
        const before = peakRss(pid);
        const large = await uploadGenerated(server.baseUrl, LARGE_BYTES, 'large.bin');
        expect(large.status, large.body).to.equal(200);
        const growth = peakRss(pid) - before;
        const [file] = JSON.parse(large.body) as { id: number; hash: string; ext: string; size: number }[];
        expect(file.size).to.equal(Math.round((LARGE_BYTES / 1000) * 100) / 100);
        const storedBytes = s3 ? await s3.objectSize(`big/${file.hash}${file.ext}`) : statSync(join(fixture.root, 'public', 'uploads', `${file.hash}${file.ext}`)).size;
        expect(storedBytes, 'the stored object').to.equal(LARGE_BYTES);
        process.stdout.write(`      peak RSS ${Math.round(before / MB)} MB after ${WARM_UP_BYTES / MB} MB, +${Math.round(growth / MB)} MB for ${LARGE_BYTES / MB} MB (${provider})\n`);
        expect(growth, `peak RSS growth in bytes (${provider})`).to.be.below(MAX_GROWTH_BYTES);
        // The disk back: the object and its row.
        const removed = await fetch(`${server.baseUrl}/api/upload/files/${file.id}`, { method: 'DELETE', headers: { Authorization: 'Bearer editor-token' } });
        expect(removed.status).to.equal(200);
      });
    });
  }
});
