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
 *
 * The same replay runs the cases recorded on each app of test/accounts/apps (app-cases.mjs): the
 * app imported as it is, over an empty database the API syncs, its Public role granted nothing of
 * the app's types, as the reference's fresh database had it.
 */
import { expect } from 'chai';
import supertest, { type Test } from 'supertest';
import { expectSameKindOfToken } from '../auth/support.js';
import type { ServedApi } from '../support/api.js';
import { testDatabaseKinds } from '../support/databases.js';
import { MailBox } from '../support/mail-box.js';
import { firstDifference } from '../writes/replay/compare.js';
import { freshFixture, type FreshFixture } from '../writes/support/fixture.js';
import type { DatabaseClient } from '../../plugin/storage/database.js';
import { appFixture, APP_RECORDINGS_DIR, recordedApps } from './app-fixture.js';
import { codeIn, comparableMail, comparableRedirect, CountingSender, FIXTURE_PUBLIC, JWT_SECRET, permissionsFor, recordedCases, serveAccounts, withCodes, type RecordedCase, type Settings } from './support.js';
import { APP_DEVIATIONS, DEVIATIONS } from './deviations.js';
import { join } from 'node:path';

interface Recording {
  /** `the small fixture`, or the app's name. */
  readonly label: string;
  readonly cases: RecordedCase[];
  readonly fixture: (client: DatabaseClient) => Promise<FreshFixture>;
  /** The Public role's reads beside what the settings grant, and whether the API syncs the database. */
  readonly serve: { readonly publicGrants: string; readonly sync: boolean };
}

const fixtureCases = recordedCases();
const recordings: Recording[] = [
  { label: 'the small fixture', cases: fixtureCases, fixture: (client) => freshFixture(client, permissionsFor(fixtureCases[0].settings)), serve: { publicGrants: FIXTURE_PUBLIC, sync: false } },
  ...recordedApps().map((app) => ({ label: app, cases: recordedCases(join(APP_RECORDINGS_DIR, app)), fixture: (client: DatabaseClient) => appFixture(app, client), serve: { publicGrants: '', sync: true } })),
];

function withoutJwt(body: unknown): unknown {
  if (!body || typeof body !== 'object' || Array.isArray(body) || !('jwt' in body)) return body;
  const { jwt: _jwt, ...rest } = body as Record<string, unknown>;
  return rest;
}

/** The recorded case, or what the plugin answers instead by decision. */
function expected(recorded: RecordedCase, app: boolean): RecordedCase {
  const key = `${recorded.group}: ${recorded.name}`;
  const deviation = (app ? APP_DEVIATIONS[key] : undefined) ?? DEVIATIONS[key];
  if (!deviation) return recorded;
  return { ...recorded, ...(typeof deviation.answer === 'function' ? deviation.answer(recorded) : deviation.answer) };
}

for (const { label, cases, fixture: makeFixture, serve } of recordings)
for (const { client, name } of testDatabaseKinds()) {
  describe(`accounts: the answers and mails recorded from Strapi 4.26.2, ${label} (${name})`, function () {
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
      fixture = await makeFixture(client);
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
        api = await serveAccounts(fixture, settings, sender, String(apis.size), serve);
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
      const want = expected(recorded, serve.sync);
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
