/**
 * `content-api serve --users`: end users served by the CLI over a copy of the Strapi database,
 * with JWT_SECRET from the environment as Strapi reads it; the flags' mistakes are usage errors.
 */
import { expect } from 'chai';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { usersFromFlags } from '../../plugin/cli/users-flags.js';
import { conformanceKitDir } from '../support/conformance-kit.js';
import { linkIn, MailBox } from '../support/mail-box.js';
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

  it('mails with --smtp-host and --mail-from to the --reset-password-url, and sends to GitHub with --github-callback, secrets from the environment', async () => {
    await server?.stop();
    const box = await MailBox.start();
    try {
      const args = ['--no-sync', '--quiet', '--users', '--server-url', 'https://api.example.com', '--smtp-host', '127.0.0.1', '--smtp-port', String(box.port), '--mail-from', 'Shop <no-reply@shop.example>', '--reset-password-url', 'https://front.example.com/reset', '--github-callback', 'https://front.example.com/connect/github'];
      server = await startServer({ database, args, env: { JWT_SECRET: 'cli-secret', GITHUB_CLIENT_ID: 'cli-github-id', GITHUB_CLIENT_SECRET: 'cli-github-secret' } });
      const forgot = await post('/api/auth/forgot-password', { email: 'user02@example.com' });
      expect(forgot.status).to.equal(200);
      const deadline = Date.now() + 10_000;
      while (box.mails.length === 0 && Date.now() < deadline) await new Promise((done) => setTimeout(done, 50));
      const [mail] = box.mails;
      expect(mail?.from).to.contain('no-reply@shop.example');
      const link = linkIn(mail!, '?code=');
      expect(link.startsWith('https://front.example.com/reset?code=')).to.equal(true);
      const code = new URL(link).searchParams.get('code')!;
      expect((await post('/api/auth/reset-password', { code, password: 'Password-2c!', passwordConfirmation: 'Password-2c!' })).status).to.equal(200);
      const connect = await fetch(`${server.baseUrl}/api/connect/github`, { redirect: 'manual' });
      expect(connect.status).to.equal(302);
      const location = new URL(connect.headers.get('location')!);
      expect(location.searchParams.get('client_id')).to.equal('cli-github-id');
      expect(location.searchParams.get('redirect_uri')).to.equal('https://api.example.com/api/connect/github/callback');
    } finally {
      await server?.stop();
      server = null;
      await box.close();
    }
  });

  it('reads the mail and provider flags, secrets never from a flag', () => {
    const flags = (more: Record<string, unknown>) => ({ users: true, register: false, 'email-confirmation': false, ...more });
    const env = { JWT_SECRET: 's', SMTP_PASSWORD: 'smtp-pass', GOOGLE_CLIENT_ID: 'env-google-id', GOOGLE_CLIENT_SECRET: 'google-secret' };
    const options = usersFromFlags(flags({ 'server-url': 'https://api.example.com', 'smtp-host': 'mail.example.com', 'smtp-user': 'mailer', 'mail-from': 'no-reply@example.com', 'confirmation-redirect': 'https://front.example.com/ok', 'google-callback': 'https://front.example.com/g' }), 'usage', env)!;
    expect(options.serverUrl).to.equal('https://api.example.com');
    expect(options.email?.confirmationRedirect).to.equal('https://front.example.com/ok');
    expect(options.providers).to.deep.equal({ google: { key: 'env-google-id', secret: 'google-secret', callback: 'https://front.example.com/g' } });
    const refusal = (more: Record<string, unknown>, environment: Record<string, string> = env) => {
      try {
        usersFromFlags(flags(more), 'usage', environment);
      } catch (error) {
        return (error as Error).message;
      }
      return 'accepted';
    };
    expect(refusal({ 'smtp-host': 'mail.example.com', 'mail-from': 'a@example.com' })).to.match(/--smtp-host needs --server-url/);
    expect(refusal({ 'server-url': 'https://api.example.com', 'smtp-host': 'mail.example.com' })).to.match(/--smtp-host needs --mail-from/);
    expect(refusal({ 'server-url': 'https://api.example.com', 'smtp-host': 'm', 'mail-from': 'a@example.com', 'smtp-user': 'u' }, { JWT_SECRET: 's' })).to.match(/SMTP_PASSWORD/);
    expect(refusal({ 'reset-password-url': 'https://front.example.com/r' })).to.match(/--reset-password-url needs --smtp-host/);
    expect(refusal({ 'server-url': 'https://api.example.com', 'github-callback': 'https://front.example.com/gh' })).to.match(/--github-client-id or \$GITHUB_CLIENT_ID/);
    expect(refusal({ 'server-url': 'https://api.example.com', 'github-callback': 'https://front.example.com/gh', 'github-client-id': 'id' })).to.match(/GITHUB_CLIENT_SECRET environment variable/);
    expect(refusal({ 'github-client-id': 'id' })).to.match(/--github-client-id needs --github-callback/);
    expect(refusal({ users: false, 'smtp-host': 'mail.example.com' })).to.match(/--smtp-host needs --users/);
  });

  it('refuses --users without JWT_SECRET, and --register without --users', async () => {
    const withoutSecret = await runCli(['serve', '--database', database, '--no-sync', '--users'], undefined, { ...process.env, JWT_SECRET: '' });
    expect(withoutSecret.code).to.equal(2);
    expect(withoutSecret.stderr).to.match(/--users needs the JWT_SECRET environment variable/);
    const registerAlone = await runCli(['serve', '--database', database, '--no-sync', '--register']);
    expect(registerAlone.stderr).to.match(/--register needs --users/);
  });
});
