/**
 * The account flows end to end, on every engine: a mail reaches the loopback mail server and the
 * link it carries completes the flow; a reset code expires and is spent once, even by two requests
 * at the same moment; no answer tells an address with an account from one without; the limits;
 * a mail that cannot be sent changes no answer; without `users.email` the mail routes are not served.
 */
import { expect } from 'chai';
import type { MailMessage, MailSender } from '../../plugin/auth/mail.js';
import { serveUsers } from '../auth/support.js';
import type { ServedApi } from '../support/api.js';
import { testDatabaseKinds } from '../support/databases.js';
import { linkIn, MailBox } from '../support/mail-box.js';
import { freshFixture, type FreshFixture } from '../writes/support/fixture.js';
import { codeIn, CountingSender, JWT_SECRET, permissionsFor, SERVER_URL, usersOption, type Settings } from './support.js';

const SETTINGS: Settings = {
  register: true,
  emailConfirmation: true,
  resetPasswordUrl: 'https://front.example.com/reset-password',
  confirmationRedirect: 'https://front.example.com/confirmed',
  templates: 'stock',
  locales: { public: true, authenticated: false },
  authenticated: [],
  providers: [],
};

const post = (api: ServedApi, path: string, body: object, address = '10.0.0.1') => api.request.post(`/api${path}`).set('X-Forwarded-For', address).send(body);

for (const { client, name } of testDatabaseKinds()) {
  describe(`accounts: the flows through mail (${name})`, function () {
    this.timeout(60_000);
    let fixture: FreshFixture;
    let box: MailBox;
    let sender: CountingSender;
    let api: ServedApi;
    let clock = Date.parse('2030-05-01T10:00:00Z');

    before(async () => {
      box = await MailBox.start();
      sender = new CountingSender(box);
      fixture = await freshFixture(client, permissionsFor(SETTINGS));
      api = await serveUsers(fixture, usersOption(SETTINGS, sender), { now: () => clock });
    });

    after(async () => {
      await api?.close();
      await sender?.close();
      await box?.close();
      await fixture?.drop();
    });

    async function mailTo(address: string, action: () => Promise<unknown>) {
      const before = box.mails.length;
      await action();
      await sender.idle();
      const mails = box.mails.slice(before).filter((mail) => mail.envelope.to.includes(address));
      expect(mails, `one mail to ${address}`).to.have.length(1);
      return mails[0];
    }

    it('resets a password from the link of the mail forgot-password sends', async () => {
      const mail = await mailTo('user01@example.com', () => post(api, '/auth/forgot-password', { email: 'User01@Example.com' }).expect(200, { ok: true }));
      expect(linkIn(mail, '?code=')).to.match(/^https:\/\/front\.example\.com\/reset-password\?code=[0-9a-f]{128}$/);
      const code = codeIn(mail, '?code=');
      const reset = await post(api, '/auth/reset-password', { code, password: 'Password-1b!', passwordConfirmation: 'Password-1b!' }).expect(200);
      expect(reset.body.user).to.include({ id: 1, username: 'user01' });
      await post(api, '/auth/local', { identifier: 'user01', password: 'Password-1b!' }).expect(200);
      const again = await post(api, '/auth/reset-password', { code, password: 'Password-1c!', passwordConfirmation: 'Password-1c!' }).expect(400);
      expect(again.body.error.message).to.equal('Incorrect code provided');
    });

    it('confirms a registered user from the link of the mail registration sends', async () => {
      const mail = await mailTo('ada@example.com', () => post(api, '/auth/local/register', { username: 'ada', email: 'ada@example.com', password: 'Password-ada!' }).expect(200));
      const link = linkIn(mail, '?confirmation=');
      expect(link.startsWith(`${SERVER_URL}/api/auth/email-confirmation?confirmation=`)).to.equal(true);
      expect((await post(api, '/auth/local', { identifier: 'ada', password: 'Password-ada!' })).body.error.message).to.equal('Your account email is not confirmed');
      const confirmed = await api.request.get(link.slice(SERVER_URL.length)).expect(302);
      expect(confirmed.headers.location).to.equal('https://front.example.com/confirmed');
      await post(api, '/auth/local', { identifier: 'ada', password: 'Password-ada!' }).expect(200);
    });

    it('refuses a reset code past its lifetime (an hour by default)', async () => {
      const mail = await mailTo('user02@example.com', () => post(api, '/auth/forgot-password', { email: 'user02@example.com' }).expect(200));
      clock += 3_600_000;
      const late = await post(api, '/auth/reset-password', { code: codeIn(mail, '?code='), password: 'Password-2b!', passwordConfirmation: 'Password-2b!' }).expect(400);
      expect(late.body.error.message).to.equal('Incorrect code provided');
      await post(api, '/auth/local', { identifier: 'user02', password: 'Password-2!' }).expect(200);
    });

    it('refuses a code Strapi stored, which carries no time', async () => {
      const code = 'bf55bdbd13e84d808fb6320f5842e8512f2a50922801e54b1500c38243455a601beef9ab6d5d3d8d8e1427b8a7c2235f0983306dbb3cf3bb36e8f86c7367820a';
      await api.api.knex('up_users').where({ id: 3 }).update({ reset_password_token: code });
      const answer = await post(api, '/auth/reset-password', { code, password: 'Password-3b!', passwordConfirmation: 'Password-3b!' }).expect(400);
      expect(answer.body.error.message).to.equal('Incorrect code provided');
    });

    it('spends a code once when two requests bring it at the same moment', async () => {
      const mail = await mailTo('user05@example.com', () => post(api, '/auth/forgot-password', { email: 'user05@example.com' }).expect(200));
      const code = codeIn(mail, '?code=');
      const answers = await Promise.all(['Password-5b!', 'Password-5c!'].map((password, index) => post(api, '/auth/reset-password', { code, password, passwordConfirmation: password }, `10.0.1.${index}`)));
      expect(answers.map((answer) => answer.status).sort()).to.deep.equal([200, 400]);
      const winner = answers.find((answer) => answer.status === 200)!;
      const password = answers.indexOf(winner) === 0 ? 'Password-5b!' : 'Password-5c!';
      await post(api, '/auth/local', { identifier: 'user05', password }).expect(200);
    });

    it('answers every address alike, with an account or not, blocked, confirmed or not', async () => {
      const forgot = await Promise.all(['user06@example.com', 'nobody@example.com', 'user08@example.com'].map((email) => post(api, '/auth/forgot-password', { email }, '10.0.2.1')));
      expect(forgot.map((answer) => [answer.status, answer.body])).to.deep.equal([[200, { ok: true }], [200, { ok: true }], [200, { ok: true }]]);
      const addresses = ['user07@example.com', 'nobody@example.com', 'user08@example.com', 'user03@example.com', 'USER04@example.com'];
      const resent = await Promise.all(addresses.map((email) => post(api, '/auth/send-email-confirmation', { email }, '10.0.2.2')));
      expect(resent.map((answer) => [answer.status, answer.body])).to.deep.equal(addresses.map((email) => [200, { email, sent: true }]));
      await sender.idle();
    });

    it('limits requests per address named in the body, from any client address', async () => {
      const sent = [];
      for (let attempt = 0; attempt < 11; attempt += 1) sent.push(await post(api, '/auth/forgot-password', { email: 'Target@example.com' }, `10.0.3.${attempt}`));
      expect(sent.slice(0, 10).map((answer) => answer.status)).to.deep.equal(Array(10).fill(200));
      expect(sent[10].status).to.equal(429);
      expect(Number(sent[10].headers['retry-after'])).to.be.greaterThan(0);
    });

    it('changes the password of the caller of a login token, and refuses anonymous callers', async () => {
      const login = await post(api, '/auth/local', { identifier: 'user07', password: 'Password-7!' }).expect(200);
      await post(api, '/auth/change-password', { currentPassword: 'Password-7!', password: 'Password-7b!', passwordConfirmation: 'Password-7b!' }).expect(403);
      const changed = await post(api, '/auth/change-password', { currentPassword: 'Password-7!', password: 'Password-7b!', passwordConfirmation: 'Password-7b!' })
        .set('Authorization', `Bearer ${login.body.jwt}`)
        .expect(200);
      expect(changed.body.user).to.include({ id: 7 });
      await post(api, '/auth/local', { identifier: 'user07', password: 'Password-7b!' }).expect(200);
    });
  });
}

describe('accounts: a mail that cannot be sent, and no mail at all', function () {
  this.timeout(60_000);
  let fixture: FreshFixture;

  before(async () => {
    fixture = await freshFixture('sqlite', permissionsFor(SETTINGS));
  });

  after(() => fixture?.drop());

  it('answers as when the mail goes, and tells the logger without the code', async () => {
    const failures: unknown[][] = [];
    const failing: MailSender = { send: (message: MailMessage) => Promise.reject(new Error(`refused ${message.to}`)) };
    const logger = { info: () => {}, warn: () => {}, error: (...args: unknown[]) => failures.push(args) };
    const api = await serveUsers(fixture, usersOption(SETTINGS, failing), { logger: logger as never });
    try {
      await post(api, '/auth/forgot-password', { email: 'user01@example.com' }).expect(200, { ok: true });
    } finally {
      // Waits for the mails under way.
      await api.close();
    }
    expect(failures).to.have.length(1);
    expect(failures[0][1]).to.equal('mail "Reset password" to user01@example.com not sent');
    expect(JSON.stringify(failures[0][0])).to.not.match(/[0-9a-f]{128}/);
  });

  it('serves change-password, and not the mail routes, without users.email', async () => {
    const api = await serveUsers(fixture, { jwtSecret: JWT_SECRET });
    try {
      await post(api, '/auth/forgot-password', { email: 'user01@example.com' }).expect(404);
      await post(api, '/auth/reset-password', { code: 'x', password: 'y', passwordConfirmation: 'y' }).expect(404);
      await post(api, '/auth/send-email-confirmation', { email: 'user01@example.com' }).expect(404);
      await api.request.get('/api/auth/email-confirmation?confirmation=x').expect(404);
      await post(api, '/auth/change-password', {}).expect(403);
    } finally {
      await api.close();
    }
  });
});
