/**
 * The pieces of a conformance run: the kit's cases, a private copy of a fixture database (SQLite
 * file, or a PostgreSQL or MariaDB database filled by `content-api copy`), and the kit's run.mjs replaying
 * the cases against a running server.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DatabaseClient } from '../../plugin/storage/database.js';
import { createTestDatabase } from '../support/databases.js';
import { cliPath, repoRoot } from '../support/server.js';

export interface KitCase {
  readonly file: string;
  readonly id: string;
  readonly query: string;
  /** The fixture the case was recorded on: `small` or `large`. */
  readonly db: string;
}

/** One entry of run.mjs's --json output. */
export interface CaseResult {
  readonly file: string;
  readonly id?: string;
  readonly query?: string;
  readonly result: 'pass' | 'fail' | 'skip';
  readonly reason?: string;
  readonly status?: number;
  readonly ms?: number;
}

export function casesDir(kit: string): string {
  return join(kit, 'cases', 'public');
}

/** Every case of the kit, in file-name order (the order run.mjs replays them). */
export function readKitCases(kit: string): KitCase[] {
  const directory = casesDir(kit);
  return readdirSync(directory)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((file) => {
      const parsed = JSON.parse(readFileSync(join(directory, file), 'utf8')) as Partial<KitCase>;
      return { file, id: parsed.id ?? file.replace(/\.json$/, ''), query: parsed.query ?? '', db: parsed.db ?? 'small' };
    });
}

export interface CommandResult {
  readonly code: number | null;
  readonly output: string;
}

/** Runs a command to completion, killing it after `timeoutMs`. Never rejects on a nonzero exit. */
export function runCommand(argv: readonly string[], timeoutMs: number): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0]!, argv.slice(1), { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const collect = (chunk: Buffer) => (output = (output + chunk.toString('utf8')).slice(-64 * 1024));
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`timed out after ${timeoutMs} ms: ${argv.slice(1).join(' ')}\n${output}`));
    }, timeoutMs);
    const killOnExit = () => child.kill('SIGKILL');
    process.once('exit', killOnExit);
    child.once('error', (error) => {
      clearTimeout(timer);
      process.off('exit', killOnExit);
      reject(error);
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      process.off('exit', killOnExit);
      resolve({ code, output });
    });
  });
}

export interface FixtureDatabase {
  /** The URL to serve: `sqlite:<copy>` or `postgres://…/<fresh database>`. */
  readonly url: string;
  /** Removes the copy. */
  drop(): Promise<void>;
}

/** A private copy of `<kit>/db/strapi-<fixture>.db` on the given kind of database. */
export async function prepareFixture(kit: string, fixture: string, client: DatabaseClient, copyTimeoutMs: number, options: { changeTriggers?: boolean } = {}): Promise<FixtureDatabase> {
  const directory = mkdtempSync(join(tmpdir(), `content-api-conformance-${fixture}-`));
  const file = join(directory, `strapi-${fixture}.db`);
  const removeFile = () => rmSync(directory, { recursive: true, force: true });
  try {
    copyFileSync(join(kit, 'db', `strapi-${fixture}.db`), file);
  } catch (error) {
    removeFile();
    throw error;
  }
  if (client === 'sqlite') return { url: `sqlite:${file}`, drop: async () => removeFile() };

  const database = await createTestDatabase(client);
  const drop = async () => {
    removeFile();
    await database.drop();
  };
  try {
    const copy = await runCommand(
      [process.execPath, cliPath, 'copy', '--from', `sqlite:${file}`, '--to', database.url, '--root', repoRoot],
      copyTimeoutMs,
    );
    if (copy.code !== 0) throw new Error(`content-api copy exited with ${copy.code}:\n${copy.output.trim()}`);
    if (options.changeTriggers) {
      const sync = await runCommand([process.execPath, cliPath, 'sync', '--change-triggers', '--database', database.url, '--root', repoRoot], copyTimeoutMs);
      if (sync.code !== 0) throw new Error(`content-api sync --change-triggers exited with ${sync.code}:\n${sync.output.trim()}`);
    }
  } catch (error) {
    await drop();
    throw error;
  }
  return { url: database.url, drop };
}

/** Replays the kit's cases recorded on `fixture` against `baseUrl`; results by case id. */
export async function replayCases(kit: string, baseUrl: string, fixture: string, timeoutMs: number): Promise<Map<string, CaseResult>> {
  const directory = mkdtempSync(join(tmpdir(), 'content-api-replay-'));
  try {
    const jsonFile = join(directory, 'results.json');
    const run = await runCommand(
      [process.execPath, join(kit, 'run.mjs'), '--base', baseUrl, '--cases', casesDir(kit), '--db', fixture, '--json', jsonFile, '--timeout', '30'],
      timeoutMs,
    );
    if (run.code !== 0 && run.code !== 1) throw new Error(`run.mjs exited with ${run.code}:\n${run.output.trim()}`);
    const report = JSON.parse(readFileSync(jsonFile, 'utf8')) as { results: CaseResult[] };
    return new Map(report.results.map((result) => [result.id ?? result.file.replace(/\.json$/, ''), result]));
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}
