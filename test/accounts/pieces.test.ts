/**
 * The account flows' pieces that need no database: the bodies' checks in yup's words and order,
 * the templates' strict variables, the reset codes' shape and lifetime, and the `users.email`
 * option's checks.
 */
import { expect } from 'chai';
import { newConfirmationCode, newResetCode, resetCodeInForce } from '../../plugin/auth/account-tokens.js';
import { parseChangePasswordBody, parseForgotPasswordBody, parseResetPasswordBody } from '../../plugin/auth/body.js';
import { emailConfig } from '../../plugin/auth/email-options.js';
import { usersConfig } from '../../plugin/auth/options.js';
import { composeMail, renderTemplate } from '../../plugin/auth/mail-templates.js';
import { DataValidationError } from '../../plugin/errors.js';

function problemsOf(parse: () => unknown): { path: (string | number)[]; message: string }[] {
  try {
    parse();
  } catch (error) {
    if (error instanceof DataValidationError) return error.problems.map(({ path, message }) => ({ path: [...path], message }));
    throw error;
  }
  throw new Error('no problem found');
}

const sender = { send: async () => {} };

describe('accounts: the bodies, checked as Strapi checks them', () => {
  it('lists the problems of every field in yup’s order, the unknown keys last', () => {
    expect(problemsOf(() => parseResetPasswordBody({ email: 'x' }))).to.deep.equal([
      { path: ['passwordConfirmation'], message: 'passwordConfirmation is a required field' },
      { path: ['password'], message: 'password is a required field' },
      { path: ['code'], message: 'code is a required field' },
      { path: [], message: 'this field has unspecified keys: email' },
    ]);
  });

  it('stops at a type error, and words values as yup prints them', () => {
    expect(problemsOf(() => parseForgotPasswordBody({ email: ['a'] }))).to.deep.equal([{ path: ['email'], message: 'email must be a `string` type, but the final value was: `[\n  "\\"a\\""\n]`.' }]);
    expect(problemsOf(() => parseForgotPasswordBody('text'))).to.deep.equal([{ path: [], message: 'this must be a `object` type, but the final value was: `"text"`.' }]);
  });

  it('checks that the confirmation equals the new password, as a problem of the body', () => {
    expect(problemsOf(() => parseChangePasswordBody({ password: 'abcdef', passwordConfirmation: 'abcdeg' }))).to.deep.equal([
      { path: ['passwordConfirmation'], message: 'Passwords do not match' },
      { path: ['currentPassword'], message: 'currentPassword is a required field' },
    ]);
    expect(parseChangePasswordBody({ currentPassword: 'a', password: 'b', passwordConfirmation: 'b' })).to.deep.equal({ currentPassword: 'a', password: 'b' });
  });
});

describe('accounts: the mail templates', () => {
  const data = { URL: 'https://front.example.com/reset', TOKEN: 'abc', SERVER_URL: 'https://api.example.com', USER: { id: 3, username: 'ada', email: 'ada@example.com', blocked: false } };

  it('replaces the variables a mail has, spaces or not', () => {
    expect(renderTemplate('<%= URL %>?code=<%=TOKEN%> for <%=  USER.username  %> (#<%= USER.id %>, <%= USER.blocked %>)', data)).to.equal('https://front.example.com/reset?code=abc for ada (#3, false)');
  });

  it('leaves every other piece of template as written, never run', () => {
    const layout = '<%= USER.password %> <%= process.exit() %> <% while(true){} %> ${URL} <%- URL %> <%= USER %>';
    expect(renderTemplate(layout, data)).to.equal(layout);
  });

  it('writes null as nothing, as Strapi does for a reset page it was not given', () => {
    expect(renderTemplate('<p><%= URL %>?code=<%= TOKEN %></p>', { ...data, URL: null })).to.equal('<p>?code=abc</p>');
  });

  it('composes the mail: the sender, reply-to, the subject seeing only the user, the message as text and HTML', () => {
    const mail = composeMail({ from: { name: 'Desk', email: 'desk@example.com' }, replyTo: 'help@example.com', subject: 'For <%= USER.username %> <%= TOKEN %>', message: '<p><%= TOKEN %></p>' }, 'ada@example.com', data);
    expect(mail).to.deep.equal({ to: 'ada@example.com', from: 'Desk <desk@example.com>', replyTo: 'help@example.com', subject: 'For ada <%= TOKEN %>', text: '<p>abc</p>', html: '<p>abc</p>' });
  });
});

describe('accounts: the codes', () => {
  it('makes reset codes of Strapi’s shape that carry their time, in force within their lifetime only', () => {
    const now = Date.parse('2030-05-01T10:00:00Z');
    const code = newResetCode(now);
    expect(code).to.match(/^[0-9a-f]{128}$/);
    expect(newResetCode(now)).to.not.equal(code);
    expect(resetCodeInForce(code, now, 3_600_000)).to.equal(true);
    expect(resetCodeInForce(code, now + 3_599_999, 3_600_000)).to.equal(true);
    expect(resetCodeInForce(code, now + 3_600_000, 3_600_000), 'expired').to.equal(false);
    expect(resetCodeInForce(code, now - 1, 3_600_000), 'made in the future').to.equal(false);
    expect(resetCodeInForce(code.toUpperCase(), now, 3_600_000), 'another shape').to.equal(false);
  });

  it('refuses a code Strapi made: its first bytes are no recent time', () => {
    const strapiMade = 'bf55bdbd13e84d808fb6320f5842e8512f2a50922801e54b1500c38243455a601beef9ab6d5d3d8d8e1427b8a7c2235f0983306dbb3cf3bb36e8f86c7367820a';
    expect(resetCodeInForce(strapiMade, Date.parse('2030-05-01T10:00:00Z'), 86_400_000)).to.equal(false);
  });

  it('makes confirmation codes as Strapi makes them', () => {
    expect(newConfirmationCode()).to.match(/^[0-9a-f]{40}$/);
  });
});

describe('accounts: the users.email option', () => {
  it('fills in Strapi’s stock templates, the admin URL and an hour for reset codes', () => {
    // users.serverUrl, checked by usersConfig, comes without its trailing slash.
    const config = emailConfig({ sender, resetPassword: { subject: 'Reset' } }, 'https://api.example.com');
    expect(config.serverUrl).to.equal('https://api.example.com');
    expect(config.adminUrl).to.equal('https://api.example.com/admin');
    expect(config.templates.resetPassword.subject).to.equal('Reset');
    expect(config.templates.resetPassword.message).to.include('<%= URL %>?code=<%= TOKEN %>');
    expect(config.templates.emailConfirmation.subject).to.equal('Account confirmation');
    expect(config.resetCodeLifetimeMs).to.equal(3_600_000);
    expect(config.confirmationRedirect).to.equal(null);
  });

  it('refuses at start what cannot work', () => {
    expect(() => usersConfig({ jwtSecret: 's', serverUrl: 'api.example.com' })).to.throw('users.serverUrl: expected an absolute http(s) URL');
    expect(() => usersConfig({ jwtSecret: 's', email: { sender } })).to.throw('users.serverUrl is required with users.email');
    expect(usersConfig({ jwtSecret: 's', serverUrl: 'https://api.example.com/', email: { sender } }).email?.serverUrl).to.equal('https://api.example.com');
    expect(() => emailConfig({ sender: {} as never }, 'https://api.example.com')).to.throw('users.email.sender');
    expect(() => emailConfig({ sender, resetCodeExpiresIn: 'soon' }, 'https://api.example.com')).to.throw('users.email.resetCodeExpiresIn');
  });
});
