/**
 * What decompression bombs cost the server: the plugin (bench/upload-server.ts, alone in its
 * process, default upload options) receives PNGs of a few hundred KB declaring hundreds of
 * millions of pixels, and this script prints, per scenario, the answers, the wall time, the
 * server's CPU (core-seconds, from /proc), its RSS before and at its peak, and how long
 * `GET /api/articles` took at worst while the bombs were processed (asked every 200 ms). Memory
 * and CPU are the server's process tree's (its image workers included), RSS sampled every 50 ms.
 * Each scenario has a fresh server on a fresh copy of the small fixture.
 *
 *   node dist/bench/image-bomb.js [--scenarios one,twenty,twenty-requests] [--shape grey|rgb|photo] [--port 4770]
 *
 * one: one 16,000 × 16,000 1-bit PNG (31 KB); twenty: twenty of them in one request;
 * twenty-requests: twenty requests of one at once. `--shape rgb` sends the 10,000 × 10,000 RGB
 * PNG (291 KB) instead, and `--shape photo` a JPEG just under the default pixel budget (5,472 ×
 * 5,472, 29.9 M pixels, noise: about 20 MB), which is processed in full: the memory of the
 * largest image work the defaults allow. Linux only (it reads /proc).
 */
import { spawn } from 'node:child_process';
import { copyFileSync, cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { tokenHash } from '../plugin/access/tokens.js';
import { repoRoot } from '../test/support/api.js';
import { conformanceKitDir } from '../test/support/conformance-kit.js';
import { bombPng, GREY_BOMB, RGB_BOMB } from '../test/uploads/support/image-bombs.js';
import { cpuMillis, processTree } from './proc-cpu.js';
import { processTreeRss, sampleRss } from './proc-rss.js';
import { waitForLine } from './wait-for-line.js';

const TOKEN = 'bench-bomb-token';
const MB = 1024 * 1024;
const READ_EVERY_MS = 200;
const SCENARIOS = ['one', 'twenty', 'twenty-requests'] as const;
type Scenario = (typeof SCENARIOS)[number];

/**
 * CPU ms of the server and its image workers: the live processes of its tree, and the workers
 * it has already reaped (cutime and cstime of its /proc stat).
 */
function treeCpuMillis(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
  const reaped = (Number(fields[13]) + Number(fields[14])) * 10;
  return reaped + processTree(pid).reduce((sum, each) => sum + (cpuMillis(each) ?? 0), 0);
}

/** A JPEG of 5,472 × 5,472 pixels of noise: what a photo just under the default budget costs. */
async function photoJpeg(): Promise<Buffer> {
  const side = 5472;
  const noise = await sharp({ create: { width: side, height: side, channels: 3, background: '#000', noise: { type: 'gaussian', mean: 128, sigma: 30 } } }).raw().toBuffer();
  return sharp(noise, { raw: { width: side, height: side, channels: 3 } }).jpeg({ quality: 92 }).toBuffer();
}

/** POSTs the files in one multipart request; its status. node:http, without fetch's 5-minute wait for headers. */
function upload(port: number, files: readonly Buffer[]): Promise<number> {
  const boundary = 'bench-bomb-boundary';
  const body = Buffer.concat([
    ...files.flatMap((file, index) => [Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="bomb-${index}"\r\nContent-Type: application/octet-stream\r\n\r\n`), file, Buffer.from('\r\n')]),
    Buffer.from(`--${boundary}--\r\n`),
  ]);
  return new Promise((resolve, reject) => {
    const sending = request(
      { host: '127.0.0.1', port, method: 'POST', path: '/api/upload', headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': `multipart/form-data; boundary=${boundary}`, 'Content-Length': body.length } },
      (response) => (response.resume(), response.on('end', () => resolve(response.statusCode ?? 0))),
    );
    sending.on('error', reject);
    sending.end(body);
  });
}

/** Asks for articles every READ_EVERY_MS until `done` settles: the slowest answer (ms) and how many there were. */
async function readsDuring(baseUrl: string, done: Promise<unknown>): Promise<{ slowest: number; count: number }> {
  let finished = false;
  void done.finally(() => (finished = true));
  let slowest = 0;
  let count = 0;
  while (!finished) {
    const started = performance.now();
    try {
      const response = await fetch(`${baseUrl}/api/articles?pagination[pageSize]=1`);
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`GET /api/articles: ${response.status}`);
    } catch (error) {
      console.log(`a read failed after ${((performance.now() - started) / 1000).toFixed(1)} s: ${(error as Error).message}`);
    }
    slowest = Math.max(slowest, performance.now() - started);
    count++;
    await new Promise((resolve) => setTimeout(resolve, READ_EVERY_MS));
  }
  return { slowest, count };
}

/** A fresh app folder and database with a role that may upload; the public role reads articles. */
function freshApp(dir: string): { root: string; database: string } {
  const root = mkdtempSync(join(dir, 'app-'));
  for (const entry of ['content-types', 'components']) cpSync(join(repoRoot, entry), join(root, entry), { recursive: true });
  writeFileSync(
    join(root, 'permissions.yaml'),
    `roles:\n  public:\n    article: [find, findOne]\n  uploader:\n    file: [find, findOne, upload]\ntokens:\n  - { name: bench, role: uploader, hash: "${tokenHash(TOKEN, 'bench-bomb-salt-0001')}" }\n`,
  );
  const database = join(root, 'plugin.db');
  copyFileSync(join(conformanceKitDir(), 'db', 'strapi-small.db'), database);
  return { root, database };
}

async function run(scenario: Scenario, bomb: Buffer, dir: string, port: number): Promise<void> {
  const { root, database } = freshApp(dir);
  const server = spawn(process.execPath, [join(repoRoot, 'dist', 'bench', 'upload-server.js'), root, database, String(port), join(root, 'uploads'), String(200 * MB)], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    await waitForLine(server, 'ready');
    const baseUrl = `http://127.0.0.1:${port}`;
    // Warm: the first read and a small image upload load what every later request uses.
    await readsDuring(baseUrl, Promise.resolve());
    await upload(port, [await sharp({ create: { width: 400, height: 300, channels: 3, background: '#468' } }).png().toBuffer()]);
    const pid = server.pid!;
    const before = processTreeRss(pid);
    const cpuBefore = treeCpuMillis(pid);
    // The server's process and its image workers, every 50 ms: a worker replaced between two samples takes its peak with it, so a job's peak may be missed by a little.
    const sampling = sampleRss(pid, 50);
    const started = performance.now();
    const sending =
      scenario === 'one' ? upload(port, [bomb]).then((status) => [status])
      : scenario === 'twenty' ? upload(port, Array(20).fill(bomb)).then((status) => [status])
      : Promise.all(Array.from({ length: 20 }, () => upload(port, [bomb])));
    const [statuses, reads] = await Promise.all([sending, readsDuring(baseUrl, sending)]);
    const wall = performance.now() - started;
    const cpu = treeCpuMillis(pid) - cpuBefore;
    const after = sampling.stop();
    const answers = [...new Set(statuses)].map((status) => `${statuses.filter((each) => each === status).length}×${status}`).join(' ');
    console.log(
      `${scenario.padEnd(15)} answers ${answers}; wall ${(wall / 1000).toFixed(1)} s; CPU ${(cpu / 1000).toFixed(1)} core-s; ` +
        `RSS ${Math.round(before / MB)} MB before, peak ${Math.round(after.peak / MB)} MB (+${Math.round((after.peak - before) / MB)} MB), ${Math.round(after.last / MB)} MB after; ` +
        `slowest GET /api/articles ${reads.slowest.toFixed(0)} ms (${reads.count} reads)`,
    );
  } finally {
    if (server.exitCode === null && server.signalCode === null) {
      const exited = new Promise((resolve) => server.once('exit', resolve));
      server.kill('SIGTERM');
      await exited;
    }
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { scenarios: { type: 'string', default: SCENARIOS.join(',') }, shape: { type: 'string', default: 'grey' }, port: { type: 'string', default: '4770' } } });
  const scenarios = values.scenarios.split(',') as Scenario[];
  for (const scenario of scenarios) if (!SCENARIOS.includes(scenario)) throw new Error(`unknown scenario ${scenario}: ${SCENARIOS.join(', ')}`);
  if (!['grey', 'rgb', 'photo'].includes(values.shape)) throw new Error(`unknown shape ${values.shape}: grey, rgb or photo`);
  const shape = values.shape === 'rgb' ? RGB_BOMB : GREY_BOMB;
  const dir = mkdtempSync(join(tmpdir(), 'bench-image-bomb-'));
  try {
    const bomb = values.shape === 'photo' ? await photoJpeg() : await bombPng(shape);
    const path = join(dir, 'bomb');
    writeFileSync(path, bomb);
    const { width, height } = await sharp(path).metadata();
    const started = performance.now();
    const cpuStarted = process.cpuUsage();
    for (let read = 0; read < 10; read++) await sharp(path).metadata();
    const cpu = process.cpuUsage(cpuStarted);
    console.log(
      `${values.shape === 'photo' ? 'JPEG' : 'bomb'}: ${width} × ${height} (${values.shape === 'photo' ? 'noise' : shape.channels === 1 ? '1-bit grey' : 'RGB'}), ${(bomb.length / 1024).toFixed(0)} KB; ` +
        `its header read by sharp in ${((performance.now() - started) / 10).toFixed(2)} ms, ${((cpu.user + cpu.system) / 10 / 1000).toFixed(2)} ms of CPU (mean of 10)`,
    );
    for (const scenario of scenarios) await run(scenario, bomb, dir, Number(values.port));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
