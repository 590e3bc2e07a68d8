/**
 * Starts the `content-api serve` CLI as a child process on a loopback port for suites that talk
 * HTTP to a real server (the conformance replay). Every start is bounded in time, and every child
 * is killed by `stop()`, by {@link stopAllServers} at the end of the run, or when the process exits.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (this file is dist/test/support/server.js once compiled). */
export const repoRoot = resolve(fileURLToPath(new URL('../../../', import.meta.url)));
/** The compiled CLI entry point. */
export const cliPath = fileURLToPath(new URL('../../plugin/cli.js', import.meta.url));
/** The package's `content-api` command as npm links it: a shell launcher of cli.js (bin/content-api.js). */
export const commandPath = fileURLToPath(new URL('../../../bin/content-api.js', import.meta.url));

const HOST = '127.0.0.1';
const OUTPUT_LIMIT = 64 * 1024;

export interface RunningServer {
  /** `http://127.0.0.1:<port>`, without a trailing slash. */
  readonly baseUrl: string;
  /** Kills the server and resolves once it has exited. */
  stop(): Promise<void>;
  /** What the server printed so far (bounded), for failure messages. */
  output(): string;
  /** The server's process, for tests of its signals and exit code. */
  readonly child: ChildProcess;
}

export interface ServeOptions {
  /** `sqlite:<path>` or `postgres://…`. */
  database: string;
  /** Schema root (default: the repository root, whose YAML is the conformance schema). */
  root?: string;
  /** Extra CLI arguments (default `['--no-sync']`; `--workers 1` is added unless they name `--workers`). */
  args?: readonly string[];
  /** Milliseconds to wait for the first HTTP answer (default 30 s). */
  startTimeoutMs?: number;
  /** Overrides the command; for tests of this helper: `[executable, ...args]`, where `{port}` is replaced. */
  command?: readonly string[];
  env?: NodeJS.ProcessEnv;
  /** Start through the package's `content-api` command (commandPath), as a user's shell does, rather than `node cli.js`. */
  viaCommand?: boolean;
}

const running = new Set<ChildProcess>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const child of running) child.kill('SIGKILL');
  });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => {
      for (const child of running) child.kill('SIGKILL');
      process.exit(128 + (signal === 'SIGINT' ? 2 : signal === 'SIGTERM' ? 15 : 1));
    });
  }
}

/** A loopback port that was free a moment ago. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, HOST, () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => (port ? resolve(port) : reject(new Error('could not allocate a port'))));
    });
  });
}

/** The address a server announced on its output, e.g. `listening on http://127.0.0.1:41234`. */
export function announcedBaseUrl(output: string): string | null {
  const match = /https?:\/\/(?:127\.0\.0\.1|localhost|\[::1\]):(\d+)/.exec(output);
  return match && Number(match[1]) > 0 ? `http://${HOST}:${match[1]}` : null;
}

function waitForExit(child: ChildProcess, ms: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

async function kill(child: ChildProcess): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) {
    child.kill('SIGTERM');
    if (!(await waitForExit(child, 5_000))) {
      child.kill('SIGKILL');
      await waitForExit(child, 5_000);
    }
  }
  running.delete(child);
}

/** One process unless the arguments say otherwise: `serve` runs one per core by default. */
function withOneProcess(args: readonly string[]): readonly string[] {
  return args.includes('--workers') ? args : [...args, '--workers', '1'];
}

/** Stops every server still running (the runner calls it after the last suite). */
export async function stopAllServers(): Promise<void> {
  await Promise.all([...running].map(kill));
}

async function answers(baseUrl: string): Promise<boolean> {
  try {
    const response = await fetch(`${baseUrl}/`, { signal: AbortSignal.timeout(2_000) });
    await response.arrayBuffer();
    return true;
  } catch {
    return false;
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Starts a server and resolves once it answers HTTP; rejects with its output when it does not.
 * The CLI is started with `--port 0` and announces the address it listens on.
 */
export async function startServer(options: ServeOptions): Promise<RunningServer> {
  installExitHook();
  const usesPortPlaceholder = options.command?.some((part) => part.includes('{port}')) ?? false;
  const chosenPort = usesPortPlaceholder ? await freePort() : null;
  const argv = options.command
    ? options.command.map((part) => part.replaceAll('{port}', String(chosenPort)))
    : [...(options.viaCommand ? [commandPath] : [process.execPath, cliPath]), 'serve', '--root', options.root ?? repoRoot, '--database', options.database,
        '--host', HOST, '--port', '0', ...withOneProcess(options.args ?? ['--no-sync'])];
  const child = spawn(argv[0]!, argv.slice(1), {
    cwd: options.root ?? repoRoot,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);

  let stdout = '';
  let stderr = '';
  const keep = (text: string, chunk: Buffer) => (text + chunk.toString('utf8')).slice(-OUTPUT_LIMIT);
  child.stdout!.on('data', (chunk: Buffer) => (stdout = keep(stdout, chunk)));
  child.stderr!.on('data', (chunk: Buffer) => (stderr = keep(stderr, chunk)));
  let spawnError: Error | null = null;
  child.once('error', (error) => (spawnError = error));

  const output = () => [stderr.trim(), stdout.trim()].filter(Boolean).join('\n');
  const stop = () => kill(child);
  const timeoutMs = options.startTimeoutMs ?? 30_000;
  const deadline = Date.now() + timeoutMs;
  const fail = async (why: string): Promise<never> => {
    await stop();
    const printed = output();
    throw new Error(`${why}: ${argv.slice(1).join(' ')}${printed ? `\n${printed}` : ' (no output)'}`);
  };

  while (Date.now() < deadline) {
    if (spawnError) return fail(`server could not be spawned (${(spawnError as Error).message})`);
    if (child.exitCode !== null || child.signalCode !== null) {
      await sleep(50); // let the pipes drain the last words
      return fail(`server exited with ${child.exitCode ?? child.signalCode} before answering`);
    }
    const baseUrl = announcedBaseUrl(stdout) ?? (chosenPort ? `http://${HOST}:${chosenPort}` : null);
    if (baseUrl && (await answers(baseUrl))) return { baseUrl, stop, output, child };
    await sleep(100);
  }
  return fail(`server did not answer within ${timeoutMs} ms`);
}
