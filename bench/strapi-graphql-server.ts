/**
 * The reference Strapi 4.26.2 with @strapi/plugin-graphql 4.26.2 enabled, for the GraphQL bench:
 * a private copy of the installed kit app (made as ../shared/oracle/serve.sh makes one) whose
 * config enables the plugin with its defaults, and whose bootstrap counts the SQL statements run
 * (knex's query events, as the oracle's README says): a request's count is its `X-Statements`
 * header, exact when it runs alone. The plugin is installed into the reference once:
 *   (cd "$ORACLE_DIR/strapi-app" && npm install --no-save --no-audit --no-fund @strapi/plugin-graphql@4.26.2)
 */
import { spawn } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';

export interface ReferenceServer {
  readonly baseUrl: string;
  /** What it printed lately, for the error that says why it did not start. */
  output(): string;
  stop(): Promise<void>;
}

const oracleApp = () => join(process.env.ORACLE_DIR ?? join(homedir(), '.cache', 'strapi-oracle'), 'strapi-app');

const COUNTING_BOOTSTRAP = `'use strict';
module.exports = {
  register() {},
  bootstrap({ strapi }) {
    strapi.benchStatements = 0;
    strapi.db.connection.on('query', () => { strapi.benchStatements += 1; });
  },
};
`;

const STATEMENTS_MIDDLEWARE = `'use strict';
module.exports = (_config, { strapi }) => async (ctx, next) => {
  const before = strapi.benchStatements ?? 0;
  await next();
  ctx.set('X-Statements', String((strapi.benchStatements ?? 0) - before));
};
`;

/** A private copy of the kit app in `shadow`, the plugin on, statements counted, serving a copy of `database`. */
function prepareCopy(shadow: string, database: string): void {
  const app = oracleApp();
  const plugin = join(app, 'node_modules', '@strapi', 'plugin-graphql');
  if (!existsSync(plugin)) throw new Error(`@strapi/plugin-graphql is not installed in ${app}: see the head of bench/strapi-graphql-server.ts`);
  mkdirSync(join(shadow, '.tmp'), { recursive: true });
  for (const entry of ['config', 'src', 'database', 'public', 'package.json', '.env']) {
    if (existsSync(join(app, entry))) cpSync(join(app, entry), join(shadow, entry), { recursive: true });
  }
  symlinkSync(join(app, 'node_modules'), join(shadow, 'node_modules'));
  copyFileSync(database, join(shadow, '.tmp', 'data.db'));
  writeFileSync(
    join(shadow, 'config', 'plugins.js'),
    `module.exports = ({ env }) => ({
  'users-permissions': { config: { jwtSecret: env('JWT_SECRET', 'oracle-jwt-secret') } },
  graphql: { enabled: true, resolve: ${JSON.stringify(plugin)}, config: {} },
});
`,
  );
  writeFileSync(join(shadow, 'src', 'index.js'), COUNTING_BOOTSTRAP);
  mkdirSync(join(shadow, 'src', 'middlewares'), { recursive: true });
  writeFileSync(join(shadow, 'src', 'middlewares', 'statements.js'), STATEMENTS_MIDDLEWARE);
  const middlewares = ['global::statements', 'strapi::logger', 'strapi::errors', 'strapi::security', 'strapi::cors', 'strapi::poweredBy', 'strapi::query', 'strapi::body', 'strapi::session', 'strapi::favicon', 'strapi::public'];
  writeFileSync(join(shadow, 'config', 'middlewares.js'), `module.exports = ${JSON.stringify(middlewares)};\n`);
}

/** Starts the reference on 127.0.0.1:`port` over a copy of `database`; resolves once its GraphQL answers (Strapi boots in 10–60 s). */
export async function startStrapiWithGraphql(database: string, port: number): Promise<ReferenceServer> {
  const shadow = mkdtempSync(join(tmpdir(), 'strapi-graphql-'));
  prepareCopy(shadow, database);
  const child = spawn(process.execPath, [join(oracleApp(), 'node_modules', '@strapi', 'strapi', 'bin', 'strapi.js'), 'start'], {
    cwd: shadow,
    env: { ...process.env, NODE_ENV: 'production', HOST: '127.0.0.1', PORT: String(port), DATABASE_FILENAME: '.tmp/data.db', STRAPI_TELEMETRY_DISABLED: 'true', STRAPI_DISABLE_UPDATE_NOTIFICATION: 'true' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  const keep = (chunk: Buffer) => (log = (log + chunk.toString('utf8')).slice(-16_000));
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
    rmSync(shadow, { recursive: true, force: true });
  };
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline && child.exitCode === null) {
    try {
      const response = await fetch(`${baseUrl}/graphql`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"query":"{ __typename }"}', signal: AbortSignal.timeout(2_000) });
      if (response.ok) return { baseUrl, output: () => log, stop };
    } catch {
      // Still booting.
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  await stop();
  throw new Error(`the reference did not serve GraphQL within 180 s:\n${log.slice(-4000)}`);
}
