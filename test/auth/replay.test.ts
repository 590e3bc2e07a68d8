/**
 * Replays the end-user cases recorded from Strapi 4.26.2 (test/auth/recorded, by record.mjs) in
 * order, on a fresh copy of the database the reference served, on every engine. Each case runs
 * on an API whose `users` option says what the reference's store said (register allowed, email
 * confirmation), from the address the case was sent from (X-Forwarded-For), with the token the
 * case names: a token this API issued to an earlier case where the reference used its own.
 *
 * Answers are compared whole, field by field, except two kinds of values that must differ: a
 * `jwt` (its `iat` and `exp` come from the clock, so the signature differs too; it is checked for
 * the same header, claims, id and lifetime, and its signature with the secret), and date-times
 * the reference wrote while recording (`"<now>"`: a new user's createdAt and updatedAt), which
 * must be close to now.
 */
import { expect } from 'chai';
import { DEFAULT_JWT_EXPIRES_IN, expiresInSeconds, signUserToken } from '../../plugin/auth/jwt.js';
import { firstDifference } from '../writes/replay/compare.js';
import { testDatabaseKinds } from '../support/databases.js';
import type { ServedApi } from '../support/api.js';
import type { FreshFixture } from '../writes/support/fixture.js';
import { authFixture, expectSameKindOfToken, JWT_SECRET, recordedCases, serveUsers, usersOption, type RecordedCase, type Settings } from './support.js';

const cases = recordedCases();

/**
 * Cases whose answer is the engine's, not Strapi's alone: on MariaDB, Strapi compares a username
 * with the column's case-insensitive collation, as the plugin does there; the recording is of
 * Strapi on SQLite.
 */
const ENGINE_ANSWERS: Readonly<Record<string, readonly string[]>> = { mysql: ['username is case-sensitive'] };

function withoutJwt(body: unknown): unknown {
  if (!body || typeof body !== 'object' || Array.isArray(body) || !('jwt' in body)) return body;
  const { jwt: _jwt, ...rest } = body as Record<string, unknown>;
  return rest;
}

for (const { client, name } of testDatabaseKinds()) {
  describe(`end users: the answers recorded from Strapi 4.26.2 (${name})`, function () {
    this.timeout(60_000);
    let fixture: FreshFixture;
    const apis = new Map<string, ServedApi>();
    const saved = new Map<string, string>();

    before(async () => {
      fixture = await authFixture(client);
    });

    after(async () => {
      for (const api of apis.values()) await api.close();
      await fixture?.drop();
    });

    /** One API per combination of settings, all over the same database. */
    async function apiFor(settings: Settings): Promise<ServedApi> {
      const key = `${settings.register}/${settings.emailConfirmation}`;
      let api = apis.get(key);
      if (!api) {
        api = await serveUsers(fixture, usersOption(settings));
        apis.set(key, api);
      }
      return api;
    }

    function authorization(recorded: RecordedCase): string | undefined {
      const bearer = recorded.request.bearer;
      if (!bearer) return undefined;
      if (bearer.from) {
        const token = saved.get(bearer.from);
        if (!token) throw new Error(`no token saved by the case "${bearer.from}" (did it fail?)`);
        return `Bearer ${token}`;
      }
      if (bearer.signedBy === 'plugin') return `Bearer ${signUserToken(bearer.id!, JWT_SECRET, expiresInSeconds(DEFAULT_JWT_EXPIRES_IN), Date.now())}`;
      return `Bearer ${bearer.token}`;
    }

    for (const recorded of cases) {
      it(`${recorded.seq} ${recorded.group}: ${recorded.name} (${recorded.status})`, async function () {
        if (ENGINE_ANSWERS[client]?.includes(recorded.name)) this.skip();
        const api = await apiFor(recorded.settings);
        const { method, path, body, headers } = recorded.request;
        let test = method === 'GET' ? api.request.get(path) : api.request.post(path);
        test = test.set('X-Forwarded-For', recorded.address).set('Accept', 'application/json');
        for (const [header, value] of Object.entries(headers ?? {})) test = test.set(header, value);
        const auth = authorization(recorded);
        if (auth) test = test.set('Authorization', auth);
        const response = await (body === undefined ? test : test.send(body as object));
        const answer = response.body as Record<string, unknown>;
        if (recorded.save && typeof answer?.jwt === 'string') saved.set(recorded.save, answer.jwt);
        expect(response.status, JSON.stringify(answer)).to.equal(recorded.status);
        const expected = recorded.response as Record<string, unknown> | null;
        if (expected && typeof expected.jwt === 'string') expectSameKindOfToken(answer.jwt, expected.jwt, Date.now());
        const difference = firstDifference(withoutJwt(expected), withoutJwt(answer), Date.now());
        expect(difference, difference).to.equal(undefined);
      });
    }
  });
}
