/**
 * `npm run bench:uploads`: the media library measured beside the reference Strapi 4.26.2, on
 * copies of the small fixture, one request at a time:
 * - uploading a 5 MB JPEG (with its thumbnail and three breakpoint formats): p50 and p90 of
 *   `--runs` uploads, for the plugin and for Strapi;
 * - the plugin's peak RSS (VmHWM) while it receives a 1 GB file, first thing after start, against
 *   its RSS before: the body is streamed to storage, so it must not grow with the file.
 *
 *   npm run bench:uploads [-- --runs 20] [-- --no-strapi] [-- --port 4760]
 * Ports `--port` (plugin, default 4760) and the next one (Strapi).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { copyFileSync, cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import sharp from 'sharp';
import { tokenHash } from '../plugin/access/tokens.js';
import { repoRoot } from '../test/support/api.js';
import { conformanceKitDir } from '../test/support/conformance-kit.js';
import { waitForLine } from './wait-for-line.js';

const TOKEN = 'bench-upload-token';
const GIGABYTE = 1024 * 1024 * 1024;

/** A photo-like JPEG of about 5 MB: noise keeps the encoder from compressing it away. */
async function fiveMegabyteJpeg(path: string): Promise<Buffer> {
  const width = 3000;
  const height = 2000;
  const raw = Buffer.alloc(width * height * 3);
  let seed = 11;
  for (let index = 0; index < raw.length; index++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    raw[index] = ((index % (width * 3)) / 12 + (seed % 96)) & 255;
  }
  await sharp(raw, { raw: { width, height, channels: 3 } }).jpeg({ quality: 97 }).toFile(path);
  return readFileSync(path);
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function timeUploads(baseUrl: string, photo: Buffer, runs: number): Promise<number[]> {
  const times: number[] = [];
  for (let run = 0; run < runs; run++) {
    const form = new FormData();
    form.append('files', new Blob([photo], { type: 'image/jpeg' }), `photo-${run}.jpg`);
    const started = performance.now();
    const response = await fetch(`${baseUrl}/api/upload`, { method: 'POST', headers: { Authorization: `Bearer ${TOKEN}` }, body: form });
    await response.text();
    if (response.status !== 200) throw new Error(`${baseUrl}: ${response.status}`);
    times.push(performance.now() - started);
  }
  return times;
}

async function waitForUrl(url: string): Promise<void> {
  for (const deadline = Date.now() + 180_000; Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 500))) {
    try {
      if ((await fetch(url)).status < 500) return;
    } catch {
      // not listening yet
    }
  }
  throw new Error(`${url} did not answer`);
}

/** VmHWM (peak resident set) and VmRSS of a process, in MB. */
function memoryOf(pid: number): { peak: number; now: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)![1]) / 1024;
  return { peak: field('VmHWM'), now: field('VmRSS') };
}

/** Streams a multipart body with one file of `bytes` zero bytes, never holding more than a chunk. */
function uploadLargeFile(port: number, bytes: number): Promise<number> {
  const head = Buffer.from('--b\r\nContent-Disposition: form-data; name="files"; filename="large.bin"\r\nContent-Type: application/octet-stream\r\n\r\n');
  const tail = Buffer.from('\r\n--b--\r\n');
  const chunk = Buffer.alloc(1024 * 1024);
  return new Promise((resolve, reject) => {
    const sending = request(
      { host: '127.0.0.1', port, method: 'POST', path: '/api/upload', headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'multipart/form-data; boundary=b', 'Content-Length': head.length + bytes + tail.length } },
      (response) => (response.resume(), response.on('end', () => resolve(response.statusCode ?? 0))),
    );
    sending.on('error', reject);
    sending.write(head);
    let sent = 0;
    const pump = () => {
      while (sent < bytes) {
        const piece = bytes - sent >= chunk.length ? chunk : chunk.subarray(0, bytes - sent);
        sent += piece.length;
        if (!sending.write(piece)) return void sending.once('drain', pump);
      }
      sending.end(tail);
    };
    pump();
  });
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { runs: { type: 'string', default: '20' }, 'no-strapi': { type: 'boolean', default: false }, port: { type: 'string', default: '4760' } } });
  const runs = Number(values.runs);
  const port = Number(values.port);
  const ours = `http://127.0.0.1:${port}`;
  const reference = `http://127.0.0.1:${port + 1}`;
  const dir = mkdtempSync(join(tmpdir(), 'bench-uploads-'));
  const children: ChildProcess[] = [];
  try {
    const photo = await fiveMegabyteJpeg(join(dir, 'photo.jpg'));
    console.log(`JPEG: ${(photo.length / 1e6).toFixed(2)} MB, 3000x2000`);
    // The plugin, on a copy of the small fixture with a role that may upload.
    const root = join(dir, 'app');
    for (const entry of ['content-types', 'components']) cpSync(join(repoRoot, entry), join(root, entry), { recursive: true });
    writeFileSync(join(root, 'permissions.yaml'), `roles:\n  uploader:\n    file: [find, findOne, upload, destroy]\ntokens:\n  - { name: bench, role: uploader, hash: "${tokenHash(TOKEN, 'bench-upload-salt-01')}" }\n`);
    const database = join(dir, 'plugin.db');
    copyFileSync(join(conformanceKitDir(), 'db', 'strapi-small.db'), database);
    const plugin = spawn(process.execPath, [join(repoRoot, 'dist', 'bench', 'upload-server.js'), root, database, String(port), join(dir, 'uploads'), String(2 * GIGABYTE)], { stdio: ['ignore', 'pipe', 'inherit'] });
    children.push(plugin);
    await waitForLine(plugin, 'ready');
    const before = memoryOf(plugin.pid!);
    const started = performance.now();
    const status = await uploadLargeFile(port, GIGABYTE);
    const after = memoryOf(plugin.pid!);
    console.log(`plugin: 1 GB upload ${status} in ${((performance.now() - started) / 1000).toFixed(1)} s; RSS before ${before.now.toFixed(0)} MB (peak so far ${before.peak.toFixed(0)} MB), peak after ${after.peak.toFixed(0)} MB`);
    await timeUploads(ours, photo, 2);
    const pluginTimes = await timeUploads(ours, photo, runs);
    console.log(`plugin: 5 MB JPEG upload p50 ${percentile(pluginTimes, 50).toFixed(0)} ms, p90 ${percentile(pluginTimes, 90).toFixed(0)} ms (${runs} runs)`);
    if (!values['no-strapi']) {
      const strapiDb = join(dir, 'strapi.db');
      copyFileSync(join(conformanceKitDir(), 'db', 'strapi-small.db'), strapiDb);
      const sqlite = new Database(strapiDb);
      const key = createHmac('sha512', 'oracle-api-token-salt').update(TOKEN).digest('hex');
      sqlite.prepare("INSERT INTO strapi_api_tokens (name, description, type, access_key, created_at, updated_at) VALUES ('bench', '', 'full-access', ?, 1, 1)").run(key);
      sqlite.close();
      const strapi = spawn('bash', [join(conformanceKitDir(), '..', 'oracle', 'serve.sh'), String(port + 1), strapiDb], { env: { ...process.env, SHADOW_DIR: join(dir, 'shadow') }, stdio: 'ignore', detached: true });
      children.push(strapi);
      await waitForUrl(`${reference}/api/articles`);
      await timeUploads(reference, photo, 2);
      const theirs = await timeUploads(reference, photo, runs);
      console.log(`strapi: 5 MB JPEG upload p50 ${percentile(theirs, 50).toFixed(0)} ms, p90 ${percentile(theirs, 90).toFixed(0)} ms (${runs} runs)`);
    }
  } finally {
    for (const child of children) {
      try {
        process.kill(child.spawnargs[0] === 'bash' ? -child.pid! : child.pid!, 'SIGTERM');
      } catch {
        // already gone
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
