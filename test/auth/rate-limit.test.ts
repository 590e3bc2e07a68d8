/**
 * Login and register attempts are limited per address (every attempt on a route, as Strapi's
 * limiter counts them: recorded in recorded/rate-limit.json and replayed) and per identifier
 * (failed logins from any address: the plugin's own, against guessing from many addresses). The
 * refusal is Strapi's 429 RateLimitError; memory stays bounded whatever the callers send.
 */
import { expect } from 'chai';
import { AttemptCounter } from '../../plugin/auth/rate-limit.js';
import { testDatabaseKinds } from '../support/databases.js';
import type { ServedApi } from '../support/api.js';
import type { FreshFixture } from '../writes/support/fixture.js';
import { authFixture, serveUsers, usersOption } from './support.js';

const STRAPI_429 = { data: null, error: { status: 429, name: 'RateLimitError', message: 'Too many requests, please try again later.', details: {} } };
const OFF = { register: false, emailConfirmation: false };

describe('rate limit: the attempt counter', () => {
  it('allows max attempts a window, then refuses until the window closes', () => {
    const counter = new AttemptCounter({ max: 3, interval: 1000 });
    expect([1, 2, 3, 4].map(() => counter.hit('a', 0))).to.deep.equal([true, true, true, false]);
    expect(counter.exceeded('a', 999)).to.equal(true);
    expect(counter.retryAfter('a', 500)).to.equal(1);
    expect(counter.exceeded('a', 1000)).to.equal(false);
    expect(counter.hit('a', 1000)).to.equal(true);
    expect(counter.hit('b', 999), 'each key has its own window').to.equal(true);
  });

  it('keeps at most maxKeys windows: closed ones swept first, then the oldest', () => {
    const counter = new AttemptCounter({ max: 1, interval: 1000 }, 100);
    for (let key = 0; key < 10_000; key += 1) counter.hit(`k${key}`, 0);
    expect(counter.size).to.equal(100);
    expect(counter.exceeded('k9999', 1), 'the newest window is kept').to.equal(true);
    expect(counter.exceeded('k0', 1), 'the oldest is forgotten').to.equal(false);
    for (let key = 0; key < 50; key += 1) counter.hit(`late${key}`, 5000);
    expect(counter.size).to.be.at.most(100);
  });
});

for (const { client, name } of testDatabaseKinds()) {
  describe(`rate limit on the end-user routes (${name})`, function () {
    this.timeout(60_000);
    let fixture: FreshFixture;
    let clock = Date.UTC(2026, 0, 1);
    const served: ServedApi[] = [];

    before(async () => {
      fixture = await authFixture(client);
    });

    after(async () => {
      for (const api of served) await api.close();
      await fixture?.drop();
    });

    async function api(rateLimit?: false | { max?: number; interval?: number }, register = false): Promise<ServedApi> {
      const created = await serveUsers(fixture, usersOption({ register, emailConfirmation: false }, rateLimit === undefined ? {} : { rateLimit }), { now: () => clock });
      served.push(created);
      return created;
    }

    const login = (on: ServedApi, address: string, identifier: string, password: string) =>
      on.request.post('/api/auth/local').set('X-Forwarded-For', address).send({ identifier, password });

    it("refuses the 11th attempt a minute from one address with Strapi's 429, whatever the credentials, and a Retry-After", async () => {
      const on = await api();
      for (let attempt = 1; attempt <= 10; attempt += 1) expect((await login(on, '10.2.0.1', `user0${(attempt % 5) + 1}`, 'wrong')).status).to.equal(400);
      const refused = await login(on, '10.2.0.1', 'user05', 'Password-5!');
      expect(refused.status).to.equal(429);
      expect(refused.body).to.deep.equal(STRAPI_429);
      expect(Number(refused.headers['retry-after'])).to.be.within(1, 60);
      expect((await login(on, '10.2.0.2', 'user05', 'Password-5!')).status, 'another address').to.equal(200);
      clock += 60_000;
      expect((await login(on, '10.2.0.1', 'user05', 'Password-5!')).status, 'a minute later').to.equal(200);
    });

    it('refuses an account after 10 failed logins from any addresses, by username or email, even with the right password, until the window closes', async () => {
      const on = await api();
      for (let attempt = 1; attempt <= 10; attempt += 1) expect((await login(on, `10.3.0.${attempt}`, attempt % 2 ? 'user06' : 'User06@Example.com', 'wrong')).status).to.equal(400);
      const refused = await login(on, '10.3.0.99', 'user06@example.com', 'Password-6!');
      expect(refused.status).to.equal(429);
      expect(refused.body).to.deep.equal(STRAPI_429);
      expect(Number(refused.headers['retry-after'])).to.be.within(1, 60);
      expect((await login(on, '10.3.0.98', 'user07', 'Password-7!')).status, 'another account').to.equal(200);
      clock += 60_000;
      expect((await login(on, '10.3.0.99', 'user06', 'Password-6!')).status, 'a minute later').to.equal(200);
    });

    it('counts failed logins of an identifier that names no account, too', async () => {
      const on = await api({ max: 3, interval: 60_000 });
      for (let attempt = 1; attempt <= 3; attempt += 1) expect((await login(on, `10.7.0.${attempt}`, 'Ghost', 'wrong')).status).to.equal(400);
      expect((await login(on, '10.7.0.9', 'ghost', 'wrong')).status).to.equal(429);
    });

    it("does not count a user's own successful logins against the identifier", async () => {
      const on = await api({ max: 2, interval: 60_000 });
      for (let attempt = 1; attempt <= 5; attempt += 1) expect((await login(on, `10.4.0.${attempt}`, 'user07', 'Password-7!')).status).to.equal(200);
    });

    it('counts register attempts per address on their own route, and takes max and interval from the option', async () => {
      const on = await api({ max: 2, interval: 5000 }, true);
      const register = (address: string, suffix: string) =>
        on.request.post('/api/auth/local/register').set('X-Forwarded-For', address).send({ username: `limited${suffix}`, email: `limited${suffix}@example.com`, password: 'x' });
      expect((await register('10.5.0.1', 'a')).status).to.equal(400);
      expect((await register('10.5.0.1', 'b')).status).to.equal(400);
      expect((await register('10.5.0.1', 'c')).status).to.equal(429);
      expect((await login(on, '10.5.0.1', 'user01', 'Password-1!')).status, 'the login route counts apart').to.equal(200);
      clock += 5000;
      expect((await register('10.5.0.1', 'd')).status).to.equal(400);
    });

    it('never refuses with rateLimit: false', async () => {
      const on = await api(false);
      for (let attempt = 1; attempt <= 15; attempt += 1) expect((await login(on, '10.6.0.1', 'user02', 'wrong')).status).to.equal(400);
    });
  });
}
