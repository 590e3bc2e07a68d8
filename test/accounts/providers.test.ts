/**
 * Third-party login with GitHub and Google, end to end against providers on loopback
 * (test/support/oauth-provider.ts), on every engine: the API sends the browser to the provider,
 * takes it back with its code, hands the front end a token, and logs the token's user in (created
 * at the first login). And what may go wrong: a state that does not match, no session, an email
 * the provider did not verify or another user's, a blocked user, registration off.
 */
import { expect } from 'chai';
import supertest from 'supertest';
import type { UsersOptions } from '../../plugin/auth/options.js';
import { serveUsers } from '../auth/support.js';
import type { ServedApi } from '../support/api.js';
import { testDatabaseKinds } from '../support/databases.js';
import { CLIENT, OAuthProvider, type FakeUser } from '../support/oauth-provider.js';
import { freshFixture, type FreshFixture } from '../writes/support/fixture.js';
import { JWT_SECRET, SERVER_URL } from './support.js';

const FRONT = 'https://front.example.com';
type Name = 'github' | 'google';

function usersWith(provider: OAuthProvider, more: Partial<UsersOptions> = {}): UsersOptions {
  const client = (name: Name) => ({ ...CLIENT, callback: `${FRONT}/connect/${name}/redirect`, ...provider.endpoints(name) });
  return { jwtSecret: JWT_SECRET, register: true, serverUrl: SERVER_URL, providers: { github: client('github'), google: client('google') }, ...more };
}

for (const { client, name } of testDatabaseKinds()) {
  describe(`third-party login against providers on loopback (${name})`, function () {
    this.timeout(60_000);
    let fixture: FreshFixture;
    let provider: OAuthProvider;
    let api: ServedApi;

    before(async () => {
      provider = await OAuthProvider.start();
      fixture = await freshFixture(client, 'roles:\n  public: {}\n  authenticated: {}\n');
      api = await serveUsers(fixture, usersWith(provider));
    });

    after(async () => {
      await api?.close();
      await provider?.close();
      await fixture?.drop();
    });

    /** The browser's round trip: to the provider and back; answers where the API sends it at the end. */
    async function dance(provider: Name, browser: supertest.Agent = api.request): Promise<URL> {
      const start = await browser.get(`/api/connect/${provider}`).expect(302);
      const back = await fetch(start.headers.location, { redirect: 'manual' });
      const returnUrl = back.headers.get('location')!;
      expect(returnUrl.startsWith(`${SERVER_URL}/api/connect/${provider}/callback?code=`), returnUrl).to.equal(true);
      const done = await browser.get(returnUrl.slice(SERVER_URL.length)).expect(302);
      return new URL(done.headers.location);
    }

    async function logIn(name: Name, user: FakeUser) {
      provider.nextUser(user);
      const front = await dance(name);
      expect(`${front.origin}${front.pathname}`).to.equal(`${FRONT}/connect/${name}/redirect`);
      return api.request.get(`/api/auth/${name}/callback?access_token=${front.searchParams.get('access_token')}`);
    }

    it('sends the browser to GitHub with the API’s client, return address, scope and a state', async () => {
      const start = await api.request.get('/api/connect/github').expect(302);
      const to = new URL(start.headers.location);
      expect(Object.fromEntries(to.searchParams)).to.include({ client_id: CLIENT.key, response_type: 'code', redirect_uri: `${SERVER_URL}/api/connect/github/callback`, scope: 'user,user:email' });
      expect(to.searchParams.get('state')).to.match(/^[0-9a-f]{20,}$/);
      expect(start.headers['set-cookie']?.[0]).to.match(/^content-api-grant=.+; path=\/api\/connect; .*samesite=lax; httponly/i);
    });

    it('logs a GitHub user in, created at the first login, the same user at the next', async () => {
      const first = await logIn('github', { login: 'octo', email: 'Octo@Example.com' });
      expect(first.status, first.text).to.equal(200);
      expect(first.body.user).to.include({ username: 'octo', email: 'octo@example.com', provider: 'github', confirmed: true, blocked: false });
      const next = await logIn('github', { login: 'octo', email: 'octo@example.com' });
      expect(next.body.user.id).to.equal(first.body.user.id);
      const me = await api.request.get('/api/users/me').set('Authorization', `Bearer ${next.body.jwt}`).expect(200);
      expect(me.body.provider).to.equal('github');
    });

    it('reads a GitHub user’s primary email when the profile shows none, if GitHub verified it', async () => {
      const verified = await logIn('github', { login: 'quiet', email: null, emails: [{ email: 'other@example.com', primary: false, verified: true }, { email: 'quiet@example.com', primary: true, verified: true }] });
      expect(verified.body.user).to.include({ username: 'quiet', email: 'quiet@example.com' });
      const unverified = await logIn('github', { login: 'unsure', email: null, emails: [{ email: 'unsure@example.com', primary: true, verified: false }] });
      expect([unverified.status, unverified.body.error.message]).to.deep.equal([400, 'Email was not available.']);
    });

    it('logs a Google user in, named after its email', async () => {
      const answer = await logIn('google', { login: 'ignored', email: 'gina@example.com' });
      expect(answer.status, answer.text).to.equal(200);
      expect(answer.body.user).to.include({ username: 'gina', email: 'gina@example.com', provider: 'google' });
    });

    it('refuses an email another user has, and a blocked user', async () => {
      const taken = await logIn('github', { login: 'intruder', email: 'user01@example.com' });
      expect([taken.status, taken.body.error.message]).to.deep.equal([400, 'Email is already taken.']);
      await api.api.knex('up_users').where({ email: 'gina@example.com' }).update({ blocked: client === 'postgres' ? true : 1 });
      const blocked = await logIn('google', { login: 'gina', email: 'gina@example.com' });
      expect([blocked.status, blocked.body.error.message]).to.deep.equal([400, 'Your account has been blocked by an administrator']);
    });

    it('sends the front end an error for a return whose state is not the session’s, or without a session', async () => {
      const start = await api.request.get('/api/connect/github').expect(302);
      const back = new URL((await fetch(start.headers.location, { redirect: 'manual' })).headers.get('location')!);
      back.searchParams.set('state', 'forged');
      const forged = await api.request.get(`${back.pathname}${back.search}`).expect(302);
      expect(forged.headers.location).to.equal(`${FRONT}/connect/github/redirect?error=Grant%3A%20OAuth2%20state%20mismatch`);
      const stranger = supertest.agent(api.app.callback());
      const lost = await stranger.get('/api/connect/github/callback?code=abc').expect(302);
      expect(lost.headers.location).to.equal('/?error=Grant%3A%20missing%20session%20or%20misconfigured%20provider');
    });

    it('answers a token the provider refuses, and none', async () => {
      const refused = await api.request.get('/api/auth/github/callback?access_token=not-a-token').expect(400);
      expect(refused.body.error.message).to.equal('The provider refused the token (401)');
      const none = await api.request.get('/api/auth/github/callback').expect(400);
      expect(none.body.error.message).to.equal('No access_token.');
    });

    it('creates no user with registration off', async () => {
      const closed = await serveUsers(fixture, usersWith(provider, { register: false }));
      try {
        const answer = await closed.request.get(`/api/auth/github/callback?access_token=${provider.tokenFor({ login: 'late', email: 'late@example.com' })}`).expect(400);
        expect(answer.body.error.message).to.equal('Register action is actually not available.');
        const known = await closed.request.get(`/api/auth/github/callback?access_token=${provider.tokenFor({ login: 'octo', email: 'octo@example.com' })}`).expect(200);
        expect(known.body.user.username).to.equal('octo');
      } finally {
        await closed.close();
      }
    });
  });
}
