// The requests test/accounts/record.mjs sends to the reference, in order: the i18n locales and the
// account flows of users-permissions (forgot and reset password, change password, email
// confirmation), each with the settings the reference's store holds while it runs.
//
// `{{name}}` in a path or body is a token an earlier case kept (`keep`: the code or confirmation
// of the link in the mail that case sent); `bearer` is `{ token }` as it is, or `{ from }`, the
// jwt of the answer of the earlier case that has that `save`.
import { readFileSync } from 'node:fs';
import { LASTING, signedToken } from '../support/reference-requests.mjs';

export const JWT_SECRET = 'accounts-recording-secret';
/** The front end the mails' links and the confirmation's redirect point at. */
export const FRONT = 'https://front.example.com';

const token = (id) => ({ token: signedToken({ id, ...LASTING }, JWT_SECRET) });
const OTHER_SECRET = { token: signedToken({ id: 1, ...LASTING }, 'another-secret') };

/** What the reference's store holds: advanced settings, templates, who may list the locales. */
export const STOCK = Object.freeze({
  register: true,
  emailConfirmation: false,
  resetPasswordUrl: `${FRONT}/reset-password`,
  confirmationRedirect: `${FRONT}/confirmed`,
  templates: 'stock',
  locales: Object.freeze({ public: true, authenticated: false }),
  /** The users-permissions actions the Authenticated role holds beside its stock ones: `user.create`, `role.find`… */
  authenticated: Object.freeze([]),
  /** The third-party providers turned on (`github`, `google`), each with PROVIDERS' settings. */
  providers: Object.freeze([]),
});

/** What the store holds for a provider turned on: its client, and the front end's page that takes the token. */
export const PROVIDERS = Object.freeze({
  github: { key: 'github-client-id', secret: 'github-client-secret', callback: `${FRONT}/connect/github/redirect`, scope: ['user', 'user:email'] },
  google: { key: 'google-client-id', secret: 'google-client-secret', callback: `${FRONT}/connect/google/redirect`, scope: ['email'] },
});
const settings = (more = {}) => ({ ...STOCK, ...more, locales: { ...STOCK.locales, ...more.locales } });
const USER_WRITES = ['user.count', 'user.create', 'user.update', 'user.destroy'];
const WRITER = settings({ authenticated: USER_WRITES });
const ROLE_READER = settings({ authenticated: [...USER_WRITES, 'role.find'] });
const ROLES = settings({ authenticated: ['role.find', 'role.findOne', 'permissions.getPermissions'] });
const ROLE_WRITER = settings({ authenticated: ['role.find', 'role.findOne', 'role.createRole', 'role.updateRole', 'role.deleteRole'] });
const PROVIDING = settings({ providers: ['github', 'google'] });
const connect = (path) => ({ method: 'GET', path: `/api/connect/${path}` });
const providerCallback = (path) => ({ method: 'GET', path: `/api/auth/${path}` });
const roles = (path = '', more = {}) => ({ method: 'GET', path: `/api/users-permissions/roles${path}`, bearer: token(1), ...more });
const CONFIRMING = settings({ emailConfirmation: true });

/**
 * The custom templates, in the store's shape: Strapi's variables in the subject and message,
 * another sender and a reply-to address (`templates: "custom"` in a case's settings).
 */
export const CUSTOM_TEMPLATES = JSON.parse(readFileSync(new URL('./custom-templates.json', import.meta.url), 'utf8'));

const post = (path, body, more = {}) => ({ method: 'POST', path, body, ...more });
const forgot = (body, more) => post('/api/auth/forgot-password', body, more);
const reset = (body, more) => post('/api/auth/reset-password', body, more);
const change = (body, more) => post('/api/auth/change-password', body, more);
const resend = (body, more) => post('/api/auth/send-email-confirmation', body, more);
const confirm = (query, more = {}) => ({ method: 'GET', path: `/api/auth/email-confirmation${query}`, ...more });
const login = (identifier, password, more) => post('/api/auth/local', { identifier, password }, more);
const me = (bearer) => ({ method: 'GET', path: '/api/users/me', bearer });
const locales = (bearer, query = '') => ({ method: 'GET', path: `/api/i18n/locales${query}`, ...(bearer ? { bearer } : {}) });
const newPassword = (code, password) => reset({ code, password, passwordConfirmation: password });

const createUser = (body, more) => post('/api/users', body, { bearer: token(1), ...more });
const updateUser = (id, body, more) => ({ method: 'PUT', path: `/api/users/${id}`, body, bearer: token(1), ...more });
const deleteUser = (id, more) => ({ method: 'DELETE', path: `/api/users/${id}`, bearer: token(1), ...more });
const countUsers = (query = '', more) => ({ method: 'GET', path: `/api/users/count${query}`, ...more });
const NEW_USER = { username: 'made', email: 'Made@Example.com', password: 'Password-made!', role: 1 };

const RESET = { marker: '?code=' };
const CONFIRMATION = { marker: '?confirmation=' };

export const groups = [
  {
    group: 'locales',
    cases: [
      { name: 'the public role lists the locales', ...locales() },
      { name: 'the query string is ignored', ...locales(undefined, '?sort=code:desc&fields[0]=code&locale=fr&pagination[pageSize]=1') },
      { name: 'a user of a role without it', ...locales(token(1)) },
      { name: 'a user of a role with it', ...locales(token(1)), settings: settings({ locales: { authenticated: true } }) },
      { name: 'the public role without it', ...locales(), settings: settings({ locales: { public: false } }) },
      { name: 'a token of another secret', ...locales(OTHER_SECRET) },
      { name: 'a token of a blocked user', ...locales(token(8)) },
      { name: 'POST is not allowed', method: 'POST', path: '/api/i18n/locales', body: { name: 'German', code: 'de' } },
      { name: 'one locale is not a route', method: 'GET', path: '/api/i18n/locales/1' },
    ],
  },
  {
    group: 'forgot-password',
    cases: [
      { name: 'sends the reset mail', ...forgot({ email: 'user01@example.com' }), keep: { name: 'reset-user01', ...RESET } },
      { name: 'the address in any case', ...forgot({ email: 'USER02@Example.COM' }), keep: { name: 'reset-user02', ...RESET } },
      { name: 'an address without an account', ...forgot({ email: 'nobody@example.com' }) },
      { name: 'a blocked user gets no mail', ...forgot({ email: 'user08@example.com' }) },
      { name: 'an unconfirmed user gets the mail', ...forgot({ email: 'user04@example.com' }), keep: { name: 'reset-user04', ...RESET } },
      { name: 'without a reset URL the link is the query alone', ...forgot({ email: 'user03@example.com' }), settings: settings({ resetPasswordUrl: null }), keep: { name: 'reset-user03', ...RESET } },
      { name: 'custom template', ...forgot({ email: 'user07@example.com' }), settings: settings({ templates: 'custom' }), keep: { name: 'reset-user07', ...RESET } },
      { name: 'no email', ...forgot({}) },
      { name: 'an empty email', ...forgot({ email: '' }) },
      { name: 'not an email', ...forgot({ email: 'user01' }) },
      { name: 'email a number', ...forgot({ email: 1 }) },
      { name: 'email null', ...forgot({ email: null }) },
      { name: 'an unknown key', ...forgot({ email: 'user01@example.com', admin: true }) },
      { name: 'an unknown key and no email', ...forgot({ admin: true }) },
      { name: 'body a list', ...forgot(['user01@example.com']) },
      { name: 'with a login token', ...forgot({ email: 'user01@example.com' }, { bearer: token(1) }) },
      { name: 'with a token of another secret', ...forgot({ email: 'user01@example.com' }, { bearer: OTHER_SECRET }) },
    ],
  },
  {
    group: 'reset-password',
    cases: [
      { name: 'no fields', ...reset({}) },
      { name: 'no fields and an unknown key', ...reset({ email: 'user01@example.com' }) },
      { name: 'code a number', ...reset({ code: 1234, password: 'Password-x1!', passwordConfirmation: 'Password-x1!' }) },
      { name: 'an empty code', ...newPassword('', 'Password-x1!') },
      { name: 'password a number', ...reset({ code: '{{reset-user01}}', password: 123456, passwordConfirmation: 123456 }) },
      { name: 'passwords that differ', ...reset({ code: '{{reset-user01}}', password: 'Password-1b!', passwordConfirmation: 'Password-1c!' }) },
      { name: 'an unknown code', ...newPassword('0123456789abcdef', 'Password-1b!') },
      { name: 'a password too short', ...newPassword('{{reset-user01}}', 'abc') },
      { name: 'resets with the code of the mail', ...newPassword('{{reset-user01}}', 'Password-1b!'), save: 'user01-reset' },
      { name: 'the code again', ...newPassword('{{reset-user01}}', 'Password-1c!') },
      { name: 'the jwt of the reset reads the user', ...me({ from: 'user01-reset' }) },
      { name: 'logs in with the new password', ...login('user01', 'Password-1b!') },
      { name: 'the old password is refused', ...login('user01', 'Password-1!') },
      { name: 'a second request for the same user', ...forgot({ email: 'user02@example.com' }), keep: { name: 'reset-user02-again', ...RESET } },
      { name: 'the first code is replaced', ...newPassword('{{reset-user02}}', 'Password-2b!') },
      { name: 'the second code resets', ...newPassword('{{reset-user02-again}}', 'Password-2b!') },
      { name: 'a code from a link without the reset URL', ...newPassword('{{reset-user03}}', 'Password-3b!') },
      { name: 'a code from the custom mail', ...newPassword('{{reset-user07}}', 'Password-7b!') },
      { name: 'with a login token', ...newPassword('{{reset-user04}}', 'Password-4b!'), bearer: token(2) },
      { name: 'an unconfirmed user resets, confirmation on', ...newPassword('{{reset-user04}}', 'Password-4b!'), settings: CONFIRMING, save: 'user04-reset' },
      { name: 'the unconfirmed user still may not log in', ...login('user04', 'Password-4b!'), settings: CONFIRMING },
      { name: 'nor use the jwt of the reset', ...me({ from: 'user04-reset' }), settings: CONFIRMING },
    ],
  },
  {
    group: 'change-password',
    cases: [
      { name: 'without a login token', ...change({ currentPassword: 'Password-6!', password: 'Password-6b!', passwordConfirmation: 'Password-6b!' }) },
      { name: 'with a token of another secret', ...change({ currentPassword: 'Password-6!', password: 'Password-6b!', passwordConfirmation: 'Password-6b!' }, { bearer: OTHER_SECRET }) },
      { name: 'with the token of a blocked user', ...change({ currentPassword: 'Password-8!', password: 'Password-8b!', passwordConfirmation: 'Password-8b!' }, { bearer: token(8) }) },
      { name: 'no fields', ...change({}, { bearer: token(6) }) },
      { name: 'an unknown key', ...change({ currentPassword: 'Password-6!', password: 'Password-6b!', passwordConfirmation: 'Password-6b!', email: 'x@example.com' }, { bearer: token(6) }) },
      { name: 'a confirmation that differs', ...change({ currentPassword: 'Password-6!', password: 'Password-6b!', passwordConfirmation: 'Password-6c!' }, { bearer: token(6) }) },
      { name: 'a confirmation that differs and no current password', ...change({ password: 'Password-6b!', passwordConfirmation: 'Password-6c!' }, { bearer: token(6) }) },
      { name: 'password a number', ...change({ currentPassword: 'Password-6!', password: 123456, passwordConfirmation: 123456 }, { bearer: token(6) }) },
      { name: 'body a list', ...change(['Password-6!'], { bearer: token(6) }) },
      { name: 'a wrong current password', ...change({ currentPassword: 'Password-5!', password: 'Password-6b!', passwordConfirmation: 'Password-6b!' }, { bearer: token(6) }) },
      { name: 'the same password', ...change({ currentPassword: 'Password-6!', password: 'Password-6!', passwordConfirmation: 'Password-6!' }, { bearer: token(6) }) },
      { name: 'a new password too short', ...change({ currentPassword: 'Password-6!', password: 'abc', passwordConfirmation: 'abc' }, { bearer: token(6) }) },
      { name: 'changes the password', ...change({ currentPassword: 'Password-6!', password: 'Password-6b!', passwordConfirmation: 'Password-6b!' }, { bearer: token(6) }), save: 'user06-changed' },
      { name: 'the answer jwt reads the user', ...me({ from: 'user06-changed' }) },
      { name: 'the earlier token still reads the user', ...me(token(6)) },
      { name: 'logs in with the new password', ...login('user06', 'Password-6b!') },
      { name: 'the old password is refused', ...login('user06', 'Password-6!') },
      { name: 'an unconfirmed user, confirmation off', ...change({ currentPassword: 'Password-4b!', password: 'Password-4c!', passwordConfirmation: 'Password-4c!' }, { bearer: token(4) }) },
      { name: 'an unconfirmed user, confirmation on', ...change({ currentPassword: 'Password-4c!', password: 'Password-4d!', passwordConfirmation: 'Password-4d!' }, { bearer: token(4) }), settings: CONFIRMING },
    ],
  },
  {
    group: 'email-confirmation',
    cases: [
      { name: 'sends the confirmation mail, the address in any case', ...resend({ email: 'USER04@Example.com' }), settings: CONFIRMING, keep: { name: 'confirm-user04-first', ...CONFIRMATION } },
      { name: 'sends it again', ...resend({ email: 'user04@example.com' }), settings: CONFIRMING, keep: { name: 'confirm-user04', ...CONFIRMATION } },
      { name: 'an address without an account', ...resend({ email: 'Nobody@Example.com' }), settings: CONFIRMING },
      { name: 'a confirmed user', ...resend({ email: 'user01@example.com' }), settings: CONFIRMING },
      { name: 'a blocked user', ...resend({ email: 'user08@example.com' }), settings: CONFIRMING },
      { name: 'no email', ...resend({}), settings: CONFIRMING },
      { name: 'not an email', ...resend({ email: 'user04' }), settings: CONFIRMING },
      { name: 'email null', ...resend({ email: null }), settings: CONFIRMING },
      { name: 'an unknown key is let through', ...resend({ email: 'nobody@example.com', admin: true }), settings: CONFIRMING },
      { name: 'body a list', ...resend(['user04@example.com']), settings: CONFIRMING },
      { name: 'resend with a login token', ...resend({ email: 'user04@example.com' }, { bearer: token(1) }), settings: CONFIRMING },
      { name: 'no confirmation', ...confirm(''), settings: CONFIRMING },
      { name: 'an empty confirmation', ...confirm('?confirmation='), settings: CONFIRMING },
      { name: 'a confirmation list', ...confirm('?confirmation[]=abc'), settings: CONFIRMING },
      { name: 'an unknown confirmation', ...confirm('?confirmation=0123456789abcdef'), settings: CONFIRMING },
      { name: 'the replaced confirmation', ...confirm('?confirmation={{confirm-user04-first}}'), settings: CONFIRMING },
      { name: 'confirm with a login token', ...confirm('?confirmation={{confirm-user04}}', { bearer: token(1) }), settings: CONFIRMING },
      { name: 'confirms and redirects', ...confirm('?confirmation={{confirm-user04}}'), settings: CONFIRMING },
      { name: 'the confirmation again', ...confirm('?confirmation={{confirm-user04}}'), settings: CONFIRMING },
      { name: 'the confirmed user logs in', ...login('user04', 'Password-4c!'), settings: CONFIRMING },
      { name: 'now confirmed', ...resend({ email: 'user04@example.com' }), settings: CONFIRMING },
      {
        name: 'registering sends the confirmation mail',
        ...post('/api/auth/local/register', { username: 'newcomer', email: 'Newcomer@Example.com', password: 'Password-new!' }),
        settings: settings({ emailConfirmation: true, confirmationRedirect: null }),
        keep: { name: 'confirm-newcomer', ...CONFIRMATION },
      },
      { name: 'the new user may not log in yet', ...login('newcomer', 'Password-new!'), settings: CONFIRMING },
      { name: 'without a redirect, to the root', ...confirm('?confirmation={{confirm-newcomer}}'), settings: settings({ emailConfirmation: true, confirmationRedirect: null }) },
      { name: 'the new user logs in', ...login('newcomer', 'Password-new!'), settings: CONFIRMING },
      {
        name: 'custom template',
        ...post('/api/auth/local/register', { username: 'second', email: 'second@example.com', password: 'Password-2nd!' }),
        settings: settings({ emailConfirmation: true, templates: 'custom' }),
        keep: { name: 'confirm-second', ...CONFIRMATION },
      },
      { name: 'a confirmation from the custom mail', ...confirm('?confirmation={{confirm-second}}'), settings: CONFIRMING },
    ],
  },
  {
    group: 'users',
    cases: [
      { name: 'count, a role without it', ...countUsers() },
      { name: 'count, a user of a role without it', ...countUsers('', { bearer: token(1) }) },
      { name: 'count', ...countUsers('', { bearer: token(1) }), settings: WRITER },
      { name: 'create, a role without it', ...createUser(NEW_USER) },
      { name: 'create, no fields', ...createUser({}), settings: WRITER },
      { name: 'create, no role', ...createUser({ username: 'made', email: 'made@example.com', password: 'Password-made!' }), settings: WRITER },
      { name: 'create, a username too short', ...createUser({ ...NEW_USER, username: 'ab' }), settings: WRITER },
      { name: 'create, a username taken', ...createUser({ ...NEW_USER, username: 'user01' }), settings: WRITER },
      { name: 'create, an email taken', ...createUser({ ...NEW_USER, email: 'USER01@example.com' }), settings: WRITER },
      { name: 'create, a role that does not exist', ...createUser({ ...NEW_USER, role: 999 }), settings: WRITER },
      { name: 'create, a username not a string', ...createUser({ ...NEW_USER, username: 123 }), settings: WRITER },
      { name: 'create, an email not an email', ...createUser({ ...NEW_USER, email: 'made' }), settings: WRITER },
      { name: 'create, an empty password', ...createUser({ ...NEW_USER, password: '' }), settings: WRITER },
      { name: 'creates a user, an unknown attribute ignored', ...createUser({ username: 'odd', email: 'odd@example.com', password: 'Password-odd!', role: 1, nickname: 'M' }), settings: WRITER },
      { name: 'creates a user, the role by id', ...createUser({ ...NEW_USER, confirmed: true }), settings: WRITER },
      { name: 'the created user logs in', ...login('made', 'Password-made!') },
      { name: 'creates a user, the role connected, shown to a role that reads roles', ...createUser({ username: 'second-made', email: 'second-made@example.com', password: 'Password-made!', role: { connect: [{ id: 2 }] } }), settings: ROLE_READER },
      { name: 'count after the creations', ...countUsers('', { bearer: token(1) }), settings: WRITER },
      { name: 'update, a role without it', ...updateUser(12, { username: 'remade' }) },
      { name: 'update, no such user', ...updateUser(999, { username: 'remade' }), settings: WRITER },
      { name: 'update, an id that is no number', ...updateUser('abc', { username: 'remade' }), settings: WRITER },
      { name: 'update, a username taken', ...updateUser(12, { username: 'user02' }), settings: WRITER },
      { name: 'update, an email taken', ...updateUser(12, { email: 'User02@example.com' }), settings: WRITER },
      { name: 'update, an empty password', ...updateUser(12, { password: '' }), settings: WRITER },
      { name: 'update, a password too short', ...updateUser(12, { password: 'abc' }), settings: WRITER },
      { name: 'update, an email not an email', ...updateUser(12, { email: 'remade' }), settings: WRITER },
      { name: 'update, an unknown attribute', ...updateUser(12, { nickname: 'R' }), settings: WRITER },
      { name: 'updates the username and the email', ...updateUser(12, { username: 'remade', email: 'ReMade@Example.com' }), settings: WRITER },
      { name: 'updates the password', ...updateUser(12, { password: 'Password-remade!' }), settings: WRITER },
      { name: 'the updated user logs in with it', ...login('remade', 'Password-remade!') },
      { name: 'updates the role, shown to a role that reads roles', ...updateUser(12, { role: 2 }), settings: ROLE_READER },
      { name: 'blocks the user', ...updateUser(12, { blocked: true }), settings: WRITER },
      { name: 'the blocked user may not log in', ...login('remade', 'Password-remade!') },
      { name: 'delete, a role without it', ...deleteUser(13) },
      { name: 'deletes a user, answered as it was', ...deleteUser(13), settings: WRITER },
      { name: 'delete, the user again', ...deleteUser(13), settings: WRITER },
      { name: 'delete, an id that is no number', ...deleteUser('abc'), settings: WRITER },
      { name: 'count after the deletion', ...countUsers('', { bearer: token(1) }), settings: WRITER },
    ],
  },
  {
    group: 'roles',
    cases: [
      { name: 'roles, a role without it', ...roles('', { bearer: undefined }) },
      { name: 'roles, a user of a role without it', ...roles() },
      { name: 'the roles', ...roles(), settings: ROLES },
      { name: 'the authenticated role with its permissions', ...roles('/1'), settings: ROLES },
      { name: 'the public role with its permissions', ...roles('/2'), settings: ROLES },
      { name: 'no such role', ...roles('/999'), settings: ROLES },
      { name: 'a role id that is no number', ...roles('/abc'), settings: ROLES },
      { name: 'one role, a role without it', ...roles('/1'), settings: settings({ authenticated: ['role.find'] }) },
      { name: 'the permissions', method: 'GET', path: '/api/users-permissions/permissions', bearer: token(1), settings: ROLES },
      { name: 'the permissions, a role without it', method: 'GET', path: '/api/users-permissions/permissions', bearer: token(1) },
      { name: 'create a role, a role without it', ...post('/api/users-permissions/roles', { name: 'Editors', description: 'edit', type: 'editor' }, { bearer: token(1) }), settings: ROLES },
      { name: 'create a role', ...post('/api/users-permissions/roles', { name: 'Editors', description: 'edit', type: 'editor' }, { bearer: token(1) }), settings: ROLE_WRITER },
      { name: 'create a role, an empty body', ...post('/api/users-permissions/roles', {}, { bearer: token(1) }), settings: ROLE_WRITER },
      { name: 'update a role', method: 'PUT', path: '/api/users-permissions/roles/3', body: { name: 'Editors', description: 'edits' }, bearer: token(1), settings: ROLE_WRITER },
      { name: 'delete the public role', method: 'DELETE', path: '/api/users-permissions/roles/2', bearer: token(1), settings: ROLE_WRITER },
      { name: 'delete a role', method: 'DELETE', path: '/api/users-permissions/roles/3', bearer: token(1), settings: ROLE_WRITER },
    ],
  },
  {
    group: 'providers',
    cases: [
      { name: 'connect, a provider turned off', ...connect('github') },
      { name: 'connect, a provider there is none of', ...connect('nobody'), settings: PROVIDING },
      { name: 'connect redirects to GitHub', ...connect('github'), settings: PROVIDING },
      { name: 'connect redirects to Google', ...connect('google'), settings: PROVIDING },
      { name: 'connect, a callback of the front end with its own query', ...connect(`github?callback=${encodeURIComponent(`${FRONT}/connect/github/redirect?next=/home`)}`), settings: PROVIDING },
      { name: 'connect, a callback elsewhere', ...connect(`github?callback=${encodeURIComponent('https://elsewhere.example.com/connect/github/redirect')}`), settings: PROVIDING },
      { name: 'connect, a callback on another path', ...connect(`github?callback=${encodeURIComponent(`${FRONT}/other`)}`), settings: PROVIDING },
      { name: 'the provider sends back no code', ...connect('github/callback'), settings: PROVIDING },
      { name: 'the provider sends back an error', ...connect('github/callback?error=access_denied&error_description=The+user+has+denied'), settings: PROVIDING },
      { name: 'log in, a provider turned off', ...providerCallback('github/callback?access_token=abc') },
      { name: 'log in, a provider there is none of', ...providerCallback('nobody/callback?access_token=abc'), settings: PROVIDING },
      { name: 'log in without a token', ...providerCallback('github/callback'), settings: PROVIDING },
      { name: 'log in with Google without a token', ...providerCallback('google/callback?code='), settings: PROVIDING },
    ],
  },
  {
    group: 'rate-limit',
    note: 'Each series from one address: Strapi allows 10 requests a minute per address, path and body email.',
    cases: [
      ...series(11, (n) => ({ name: `forgot-password ${n} of 10 allowed`, ...forgot({ email: 'flood@example.com' }), address: '127.0.0.240' })),
      ...series(11, (n) => ({ name: `reset-password ${n} of 10 allowed`, ...newPassword('0123456789abcdef', 'Password-x1!'), address: '127.0.0.241' })),
      ...series(11, (n) => ({ name: `change-password ${n} of 10 allowed`, ...change({ currentPassword: 'wrong-password', password: 'Password-5b!', passwordConfirmation: 'Password-5b!' }, { bearer: token(5) }), address: '127.0.0.242' })),
      ...series(11, (n) => ({ name: `send-email-confirmation ${n}`, ...resend({ email: 'flood@example.com' }), address: '127.0.0.243' })),
    ],
  },
];

/** `count` cases; the last is named as the one past the allowance. */
function series(count, make) {
  return Array.from({ length: count }, (_, index) => {
    const testCase = make(index + 1);
    return index + 1 > 10 ? { ...testCase, name: testCase.name.replace(/ of 10 allowed$/, ', past the allowance') } : testCase;
  });
}

export { settings, token, post, login, me, locales, forgot, newPassword, change, createUser, updateUser, deleteUser, countUsers, roles, RESET };
