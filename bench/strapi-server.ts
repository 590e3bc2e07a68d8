/**
 * The reference Strapi 4.26.2 (../shared/oracle, installed with its install.sh) served for a
 * benchmark on a copy of a fixture, optionally with a full-access API token for writes.
 */
import { spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { copyFileSync, existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, join } from 'node:path';
import Database from 'better-sqlite3';
import { conformanceKitDir } from '../test/support/conformance-kit.js';
import { freePort } from '../test/support/server.js';

export interface StrapiServer {
  readonly name: 'strapi';
  readonly baseUrl: string;
  /** The server's process (serve.sh execs node in place of its shell). */
  readonly pid: number;
  stop(): Promise<void>;
}

/** The oracle app's API_TOKEN_SALT: Strapi stores the HMAC-SHA512 of a token with it. */
const ORACLE_TOKEN_SALT = 'oracle-api-token-salt';

/** A copy of `database` in `dir` holding a full-access token `token`. */
function withWriterToken(database: string, dir: string, token: string): string {
  const copy = join(dir, `writer-${basename(database)}`);
  copyFileSync(database, copy);
  const db = new Database(copy);
  try {
    const key = createHmac('sha512', ORACLE_TOKEN_SALT).update(token).digest('hex');
    db.prepare(
      "INSERT INTO strapi_api_tokens (name, description, type, access_key, created_at, updated_at) VALUES ('bench-writer', '', 'full-access', ?, ?, ?)",
    ).run(key, Date.now(), Date.now());
  } finally {
    db.close();
  }
  return copy;
}

/** Starts the reference on a copy of `database` and waits until it answers (Strapi takes 10–30 s to boot). */
export async function startStrapi(database: string, options: { writerToken?: string; dir?: string; port?: number } = {}): Promise<StrapiServer> {
  const serveScript = join(conformanceKitDir(), '..', 'oracle', 'serve.sh');
  const installed = join(process.env.ORACLE_DIR ?? join(homedir(), '.cache', 'strapi-oracle'), 'strapi-app', 'node_modules', '@strapi', 'strapi');
  if (!existsSync(serveScript) || !existsSync(installed)) throw new Error(`the reference is not installed: run ${join(conformanceKitDir(), '..', 'oracle', 'install.sh')}`);
  const served = options.writerToken && options.dir ? withWriterToken(database, options.dir, options.writerToken) : database;
  const port = options.port ?? (await freePort());
  const child = spawn('bash', [serveScript, String(port), served], { stdio: 'ignore', detached: true });
  const baseUrl = `http://127.0.0.1:${port}`;
  const stop = async () => {
    try {
      process.kill(-child.pid!, 'SIGTERM');
    } catch {
      // Already gone.
    }
  };
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`${baseUrl}/api/articles`, { signal: AbortSignal.timeout(2_000) })).ok) return { name: 'strapi', baseUrl, pid: child.pid!, stop };
    } catch {
      // Still booting.
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  await stop();
  throw new Error('the reference did not answer within 120 s');
}
