// The requests test/accounts/record.mjs sends (`--app <name>`) to the reference serving one app of
// test/apps/ on a fresh database: the routes of the users-permissions and i18n plugins on that
// app's schema. The users are the ones these cases register (alice is 1, bob 2, carol 3); the
// roles are Strapi's stock Authenticated (1) and Public (2). What differs from app to app is the
// permissions list (every action of the app's types) and the user's own attributes: an app that
// extends the user (src/extensions/users-permissions) is registered, created and updated with them.
import { change, countUsers, createUser, deleteUser, forgot, locales, login, me, newPassword, post, RESET, roles, settings, token, updateUser } from './cases.mjs';

// `GET /api/users` and `/users/:id` are the content routes here (docs/users.md U7): not recorded.
const USERS = ['user.count', 'user.create', 'user.update', 'user.destroy'];
const WRITER = settings({ authenticated: USERS });
const ROLES = settings({ authenticated: ['role.find', 'role.findOne', 'permissions.getPermissions'] });
const register = (username, more = {}) => post('/api/auth/local/register', { username, email: `${username}@example.com`, password: `Password-${username}!`, ...more });

/**
 * A value for each attribute the app adds to the user: null for media and relations (the fresh
 * database has no files nor entries), a word for text, a number, a boolean.
 */
export function extraValues(extra) {
  const value = (attribute) => {
    switch (attribute.type) {
      case 'string': case 'text': case 'richtext': return 'extra';
      case 'integer': case 'float': case 'decimal': return 7;
      case 'boolean': return true;
      default: return null;
    }
  };
  return Object.fromEntries(Object.entries(extra).map(([name, attribute]) => [name, value(attribute)]));
}

/** The groups for an app whose user has the attributes `extra` beside Strapi's stock ones. */
export function appGroups(extra) {
  const values = extraValues(extra);
  const extended = Object.keys(values).length > 0;
  return [
    {
      group: 'locales',
      cases: [
        { name: 'the public role lists the locales', ...locales() },
        { name: 'the public role without it', ...locales(), settings: settings({ locales: { public: false } }) },
      ],
    },
    {
      group: 'register',
      cases: [
        { name: extended ? "registers alice, with the app's own user attributes" : 'registers alice', ...register('alice', values), save: 'alice' },
        { name: 'registers bob', ...register('bob') },
        { name: 'a username taken', ...register('alice') },
        { name: 'logs in', ...login('alice', 'Password-alice!') },
        { name: 'me', ...me({ from: 'alice' }) },
        { name: 'me, everything populated', method: 'GET', path: '/api/users/me?populate=*', bearer: { from: 'alice' } },
      ],
    },
    {
      group: 'users',
      cases: [
        { name: 'count, a user of a role without it', ...countUsers('', { bearer: token(1) }) },
        { name: 'count', ...countUsers('', { bearer: token(1) }), settings: WRITER },
        { name: 'create, no fields', ...createUser({}), settings: WRITER },
        { name: 'creates carol', ...createUser({ username: 'carol', email: 'carol@example.com', password: 'Password-carol!', role: 1, ...values }), settings: WRITER },
        { name: 'updates carol', ...updateUser(3, { username: 'caroline', ...values }), settings: WRITER },
        { name: 'update, no such user', ...updateUser(999, { username: 'nobody' }), settings: WRITER },
        { name: 'deletes carol', ...deleteUser(3), settings: WRITER },
        { name: 'delete, no such user', ...deleteUser(3), settings: WRITER },
        { name: 'count after', ...countUsers('', { bearer: token(1) }), settings: WRITER },
      ],
    },
    {
      group: 'roles',
      cases: [
        { name: 'roles, a user of a role without it', ...roles() },
        { name: 'the roles', ...roles(), settings: ROLES },
        { name: 'the authenticated role with its permissions', ...roles('/1'), settings: ROLES },
        { name: 'the public role with its permissions', ...roles('/2'), settings: ROLES },
        { name: 'the permissions', method: 'GET', path: '/api/users-permissions/permissions', bearer: token(1), settings: ROLES },
      ],
    },
    {
      group: 'accounts',
      cases: [
        { name: 'sends the reset mail', ...forgot({ email: 'bob@example.com' }), keep: { name: 'reset-bob', ...RESET } },
        { name: 'resets with the code of the mail', ...newPassword('{{reset-bob}}', 'Password-bob2!'), save: 'bob-reset' },
        { name: 'logs in with the new password', ...login('bob', 'Password-bob2!') },
        { name: 'changes the password', ...change({ currentPassword: 'Password-bob2!', password: 'Password-bob3!', passwordConfirmation: 'Password-bob3!' }, { bearer: { from: 'bob-reset' } }) },
        { name: 'the old password is refused', ...login('bob', 'Password-bob2!') },
      ],
    },
  ];
}
