/**
 * Replays the locale and account-flow cases recorded from Strapi 4.26.2 (test/accounts/recorded,
 * by record.mjs) in order, on a fresh copy of the database the reference served, on every engine.
 * Each case runs on an API whose options say what the reference's store said, from the address
 * the case was sent from, with the codes the earlier mails of this run carried: a mail is read
 * from the loopback mail server, compared with the reference's, and its link's code kept.
 *
 * Answers are compared whole, as test/auth/replay.test.ts compares them (a `jwt` by its kind,
 * `"<now>"` as a time close to now), and so are the mails (codes and the API's address aside) and
 * redirects (the API's address and the OAuth state the plugin adds aside).
 * The few cases where the plugin answers otherwise by decision are listed in DEVIATIONS.
 */
import { expect } from 'chai';
import supertest, { type Test } from 'supertest';
import { expectSameKindOfToken } from '../auth/support.js';
import type { ServedApi } from '../support/api.js';
import { testDatabaseKinds } from '../support/databases.js';
import { MailBox } from '../support/mail-box.js';
import { firstDifference } from '../writes/replay/compare.js';
import { freshFixture, type FreshFixture } from '../writes/support/fixture.js';
import { codeIn, comparableMail, comparableRedirect, CountingSender, JWT_SECRET, permissionsFor, recordedCases, serveAccounts, withCodes, type RecordedCase, type Settings } from './support.js';
import { DEVIATIONS } from './deviations.js';

const cases = recordedCases();

function withoutJwt(body: unknown): unknown {
  if (!body || typeof body !== 'object' || Array.isArray(body) || !('jwt' in body)) return body;
  const { jwt: _jwt, ...rest } = body as Record<string, unknown>;
  return rest;
}

/** The recorded case, or what the plugin answers instead by decision. */
function expected(recorded: RecordedCase): RecordedCase {
  const deviation = DEVIATIONS[`${recorded.group}: ${recorded.name}`];
  if (!deviation) return recorded;
  return { ...recorded, ...(typeof deviation.answer === 'function' ? deviation.answer(recorded) : deviation.answer) };
}

for (const { client, name } of testDatabaseKinds()) {
  describe(`accounts: the answers and mails recorded from Strapi 4.26.2 (${name})`, function () {
    this.timeout(60_000);
    let fixture: FreshFixture;
    let box: MailBox;
    let sender: CountingSender;
    const apis = new Map<string, ServedApi>();
    const saved = new Map<string, string>();
    const kept = new Map<string, string>();

    before(async () => {
      box = await MailBox.start();
      sender = new CountingSender(box);
      fixture = await freshFixture(client, permissionsFor(cases[0].settings));
    });

    after(async () => {
      for (const api of apis.values()) await api.close();
      await sender?.close();
      await box?.close();
      await fixture?.drop();
    });

    /** One API per combination of settings, all over the same database and mail box. */
    async function apiFor(settings: Settings): Promise<ServedApi> {
      const key = JSON.stringify(settings);
      let api = apis.get(key);
      if (!api) {
        api = await serveAccounts(fixture, settings, sender, String(apis.size));
        apis.set(key, api);
      }
      return api;
    }

    function send(api: ServedApi, recorded: RecordedCase): Test {
      const { method, body, bearer } = recorded.request;
      const path = withCodes(recorded.request.path, kept);
      // No cookie goes from one case to the next, as none did at the reference.
      const client = supertest(api.app.callback());
      let test = method === 'GET' ? client.get(path) : method === 'POST' ? client.post(path) : method === 'PUT' ? client.put(path) : client.delete(path);
      test = test.set('X-Forwarded-For', recorded.address).set('Accept', 'application/json');
      const token = bearer?.from ? saved.get(bearer.from) : bearer?.token;
      if (bearer?.from && !token) throw new Error(`no jwt saved by the case "${bearer.from}" (did it fail?)`);
      if (token) test = test.set('Authorization', `Bearer ${token}`);
      return body === undefined ? test : test.send(withCodes(body, kept) as object);
    }

    for (const recorded of cases) {
      const want = expected(recorded);
      it(`${recorded.seq} ${recorded.group}: ${recorded.name} (${want.status})`, async () => {
        const api = await apiFor(recorded.settings);
        const before = box.mails.length;
        const response = await send(api, recorded);
        await sender.idle();
        const answer = response.body as Record<string, unknown>;
        if (recorded.save && typeof answer?.jwt === 'string') saved.set(recorded.save, answer.jwt);
        const mails = box.mails.slice(before);
        if (recorded.keep && mails.length === 1) kept.set(recorded.keep.name, codeIn(mails[0], recorded.keep.marker));
        expect(response.status, JSON.stringify(answer) || response.text).to.equal(want.status);
        const wanted = want.response as Record<string, unknown> | null;
        if (wanted && typeof wanted.jwt === 'string') expectSameKindOfToken(answer.jwt, wanted.jwt, Date.now(), JWT_SECRET);
        if (want.status === 204) expect(response.text, 'no content').to.equal('');
        else if (want.responseText !== undefined) expect(comparableRedirect(response.text)).to.equal(want.responseText);
        else {
          const difference = firstDifference(withoutJwt(wanted), withoutJwt(answer), Date.now());
          expect(difference, difference).to.equal(undefined);
        }
        if (want.location !== undefined) expect(comparableRedirect(response.headers.location ?? '')).to.equal(want.location);
        expect(mails.map((mail) => comparableMail(mail))).to.deep.equal(want.mails);
      });
    }
  });
}
