/**
 * Runs every compiled suite (dist/test/**\/*.test.js and dist/examples/**\/*.test.js) with mocha and ends
 * with one summary line:
 * `N passed, N failed` (then `, N pending` when some were pending). Exit code 1 when anything failed.
 *
 *   npm test                          all suites, SQLite (+ PostgreSQL when TEST_DATABASE_URL is set)
 *   npm test -- --grep conformance    only the tests whose full title matches
 *   node dist/test/run-suites.js --grep <regex> [--invert] [--bail] [--timeout ms] [file-substring…]
 */
import { readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type Mocha from 'mocha';
import { postgresServerUrl } from './support/databases.js';
import { stopAllServers } from './support/server.js';
import { dropFixtures } from './support/api.js';

/** Database suites create databases and start servers: far above mocha's 2 s default. */
const DEFAULT_TIMEOUT_MS = 60_000;
/** How long open handles may keep the process alive after the summary line. */
const EXIT_GRACE_MS = 3_000;

interface RunOptions {
  grep?: string;
  invert: boolean;
  bail: boolean;
  timeout: number;
  fileFilters: string[];
}

function parseArguments(argv: readonly string[]): RunOptions {
  const options: RunOptions = { invert: false, bail: false, timeout: DEFAULT_TIMEOUT_MS, fileFilters: [] };
  for (let i = 0; i < argv.length; i += 1) {
    const argument = argv[i]!;
    const value = (): string => {
      const next = argv[i + 1];
      if (next === undefined) throw new Error(`missing value for ${argument}`);
      i += 1;
      return next;
    };
    const inline = /^--(grep|timeout)=(.*)$/.exec(argument);
    if (inline) {
      if (inline[1] === 'grep') options.grep = inline[2];
      else options.timeout = parseTimeout(inline[2]!);
    } else if (argument === '--grep' || argument === '-g') options.grep = value();
    else if (argument === '--invert' || argument === '-i') options.invert = true;
    else if (argument === '--bail' || argument === '-b') options.bail = true;
    else if (argument === '--timeout' || argument === '-t') options.timeout = parseTimeout(value());
    else if (argument.startsWith('-')) throw new Error(`unknown option ${argument}`);
    else options.fileFilters.push(argument);
  }
  return options;
}

function parseTimeout(text: string): number {
  const ms = Number(text);
  if (!Number.isInteger(ms) || ms < 0) throw new Error(`--timeout expects milliseconds, got "${text}"`);
  return ms;
}

function findTestFiles(directory: string): string[] {
  const found: string[] = [];
  for (const name of readdirSync(directory)) {
    const path = join(directory, name);
    if (statSync(path).isDirectory()) found.push(...findTestFiles(path));
    else if (name.endsWith('.test.js')) found.push(path);
  }
  return found;
}

/** The server URL without its password, for the banner. */
function describeServer(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(unparsable URL)';
  }
}

function printBanner(files: readonly string[], root: string, options: RunOptions): void {
  const server = postgresServerUrl();
  const databases = server ? `sqlite, postgres (${describeServer(server)})` : 'sqlite (set TEST_DATABASE_URL to add postgres)';
  console.log(`databases: ${databases}`);
  console.log(`suites: ${files.length} file(s) under ${relative(process.cwd(), root) || '.'}${options.grep ? `, grep ${options.invert ? '(inverted) ' : ''}/${options.grep}/` : ''}`);
}

async function main(): Promise<number> {
  const options = parseArguments(process.argv.slice(2));
  const testRoot = dirname(fileURLToPath(import.meta.url));
  // The example apps' own suites run too: they are what a user of the testing kit writes.
  const files = [...findTestFiles(testRoot), ...findTestFiles(join(testRoot, '..', 'examples'))]
    .filter((file) => options.fileFilters.length === 0 || options.fileFilters.some((filter) => file.split(sep).join('/').includes(filter)))
    .sort();
  printBanner(files, testRoot, options);

  // Colors only on a terminal: mocha's symbols follow picocolors, which reads NO_COLOR when loaded.
  const color = Boolean(process.stdout.isTTY);
  if (!color) process.env.NO_COLOR = '1';
  const { default: MochaClass } = await import('mocha');
  const mocha = new MochaClass({ reporter: 'spec', timeout: options.timeout, slow: 2_000, bail: options.bail, color });
  if (options.grep) mocha.grep(new RegExp(options.grep));
  if (options.invert) mocha.invert();
  for (const file of files) mocha.addFile(file);
  await mocha.loadFilesAsync();

  const stats = await new Promise<Mocha.Stats>((resolve) => {
    const runner = mocha.run(() => resolve(runner.stats ?? { passes: 0, failures: 1, pending: 0 } as Mocha.Stats));
  });
  await stopAllServers();
  // The fixture databases shared by the HTTP suites (one per engine) are dropped once, at the end.
  await dropFixtures();

  const pending = stats.pending > 0 ? `, ${stats.pending} pending` : '';
  console.log(`${stats.passes} passed, ${stats.failures} failed${pending}`);
  return stats.failures > 0 ? 1 : 0;
}

function finish(code: number): void {
  process.exitCode = code;
  // A suite that leaves a handle open must not keep CI waiting.
  setTimeout(() => process.exit(code), EXIT_GRACE_MS).unref();
}

main().then(finish, async (error: unknown) => {
  await stopAllServers();
  await dropFixtures().catch(() => undefined);
  console.error(error instanceof Error ? error.stack ?? error.message : String(error));
  console.log('0 passed, 1 failed');
  finish(1);
});
