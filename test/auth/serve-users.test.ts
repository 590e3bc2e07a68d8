/**
 * `content-api serve --users`: end users served by the CLI over a copy of the Strapi database,
 * with JWT_SECRET from the environment as Strapi reads it; the flags' mistakes are usage errors.
 */
import { expect } from 'chai';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { conformanceKitDir } from '../support/conformance-kit.js';
import { runCli } from '../support/run-node.js';
import { startServer, type RunningServer } from '../support/server.js';

describe('content-api serve --users', function () {
  this.timeout(60_000);
  let folder: string;
  let database: string;
  let server: RunningServer | null = null;

  before(() => {
    folder = mkdtempSync(join(tmpdir(), 'content-api-users-'));
    copyFileSync(join(conformanceKitDir(), 'db', 'strapi-small.db'), join(folder, 'strapi.db'));
    database = `sqlite:${join(folder, 'strapi.db')}`;
  });

  after(async () => {
    await server?.stop();
    rmSync(folder, { recursive: true, force: true });
  });

  const post = (path: string, body: unknown) =>
    fetch(`${server!.baseUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  it('logs in, registers with --register and answers /users/me, tokens signed with $JWT_SECRET for --jwt-expires-in', async () => {
    server = await startServer({ database, args: ['--no-sync', '--quiet', '--users', '--register', '--jwt-expires-in', '7d'], env: { JWT_SECRET: 'cli-secret' } });
    const login = await post('/api/auth/local', { identifier: 'user01', password: 'Password-1!' });
    expect(login.status).to.equal(200);
    const { jwt } = (await login.json()) as { jwt: string };
    const claims = JSON.parse(Buffer.from(jwt.split('.')[1], 'base64url').toString('utf8')) as { iat: number; exp: number };
    expect(claims.exp - claims.iat).to.equal(7 * 86_400);
    const me = await fetch(`${server.baseUrl}/api/users/me`, { headers: { authorization: `Bearer ${jwt}` } });
    expect(((await me.json()) as { username: string }).username).to.equal('user01');
    expect((await post('/api/auth/local/register', { username: 'clinew', email: 'clinew@example.com', password: 'Password-c!' })).status).to.equal(200);
  });

  it('refuses --users without JWT_SECRET, and --register without --users', async () => {
    const withoutSecret = await runCli(['serve', '--database', database, '--no-sync', '--users'], undefined, { ...process.env, JWT_SECRET: '' });
    expect(withoutSecret.code).to.equal(2);
    expect(withoutSecret.stderr).to.match(/--users needs the JWT_SECRET environment variable/);
    const registerAlone = await runCli(['serve', '--database', database, '--no-sync', '--register']);
    expect(registerAlone.stderr).to.match(/--register needs --users/);
  });
});
