/**
 * The OpenAPI operations of the routes beside login and `/users/me`: the locales list (to a role
 * that may `find` locales), the account flows the `users` option serves (change password always;
 * forgot and reset password, email confirmation when it sends mail), the users routes a role's
 * actions on `user` allow, the read-only roles routes (`find`/`findOne` on `role`), and third-party
 * login for each configured provider. Answers as Strapi 4.26.2 gives them (flat, no envelope).
 */
import type { Grants } from '../access/permissions.js';
import { LOCALE_UID } from '../access/permissions.js';
import { ROLE_UID, USER_UID } from '../schema/users-permissions.js';
import { ref, type JsonSchema } from './names.js';
import type { OpenApiObject } from './parameters.js';
import { ERROR_SCHEMA } from './response-schemas.js';

/** The schema names this file declares, kept from model schemas. */
export const ACCOUNT_SCHEMA_NAMES = ['Locale', 'AuthEmail', 'AuthResetPassword', 'AuthChangePassword', 'AuthUserInput', 'UsersUser', 'UsersRole', 'UsersPermissions'] as const;

export interface AccountRoutes {
  /** Whether mail is configured (`users.email`): forgot and reset password, email confirmation. */
  readonly email: boolean;
  /** The third-party providers configured (`github`, `google`). */
  readonly providers: readonly string[];
}

type Paths = Record<string, Record<string, OpenApiObject>>;

const json = (schema: JsonSchema): OpenApiObject => ({ content: { 'application/json': { schema } } });
const STRING = { type: 'string', minLength: 1 };
const DATE_TIME = { type: ['string', 'null'], format: 'date-time' };
const ID = { name: 'id', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } };
const POLICY = { type: 'object', required: ['enabled', 'policy'], properties: { enabled: { type: 'boolean' }, policy: { type: 'string' } } };

const SCHEMAS: Record<string, JsonSchema> = {
  Locale: {
    type: 'object',
    required: ['id', 'name', 'code', 'isDefault', 'createdAt', 'updatedAt'],
    properties: { id: { type: 'integer' }, name: { type: ['string', 'null'] }, code: { type: 'string' }, isDefault: { type: 'boolean' }, createdAt: DATE_TIME, updatedAt: DATE_TIME },
  },
  AuthEmail: { type: 'object', required: ['email'], properties: { email: { type: 'string', format: 'email' } } },
  AuthResetPassword: { type: 'object', required: ['code', 'password', 'passwordConfirmation'], additionalProperties: false, properties: { code: STRING, password: STRING, passwordConfirmation: STRING } },
  AuthChangePassword: { type: 'object', required: ['currentPassword', 'password', 'passwordConfirmation'], additionalProperties: false, properties: { currentPassword: STRING, password: STRING, passwordConfirmation: STRING } },
  AuthUserInput: {
    type: 'object',
    description: "A user's attributes; `role` a role id (else the default role), `password` stored hashed",
    properties: { username: { type: 'string', minLength: 3 }, email: { type: 'string', format: 'email' }, password: STRING, role: { type: 'integer' }, confirmed: { type: 'boolean' }, blocked: { type: 'boolean' } },
  },
  UsersRole: {
    type: 'object',
    required: ['id', 'name', 'description', 'type', 'createdAt', 'updatedAt'],
    properties: { id: { type: 'integer' }, name: { type: 'string' }, description: { type: ['string', 'null'] }, type: { type: ['string', 'null'] }, createdAt: DATE_TIME, updatedAt: DATE_TIME, nb_users: { type: 'integer' } },
  },
  UsersPermissions: {
    type: 'object',
    description: "Every action, by plugin or API (`api::article`), controller and action, as Strapi's users-permissions lists them",
    additionalProperties: {
      type: 'object',
      required: ['controllers'],
      properties: { controllers: { type: 'object', additionalProperties: { type: 'object', additionalProperties: POLICY } } },
    },
  },
};

function failures(statuses: Record<number, string>): Record<string, OpenApiObject> {
  return Object.fromEntries(Object.entries(statuses).map(([status, description]) => [status, { description, ...json(ref(status === '400' ? 'ValidationError' : 'Error')) }]));
}

const ANONYMOUS = [{}];
const LOGGED_IN = [{ loginToken: [] }];
const REDIRECT = { description: 'A redirect', headers: { Location: { schema: { type: 'string' } } } };

function post(operationId: string, summary: string, body: string, answer: JsonSchema, errors: Record<number, string>, security = ANONYMOUS): Record<string, OpenApiObject> {
  return { post: { operationId, summary, tags: ['Users'], security, requestBody: { required: true, ...json(ref(body)) }, responses: { 200: { description: 'OK', ...json(answer) }, ...failures(errors) } } };
}

/** `GET <prefix>/i18n/locales`, to a role that may `find` locales. */
export function localeOperations(grants: Grants, prefix: string): { paths: Paths; schemas: Record<string, JsonSchema> } {
  if (!grants.can(LOCALE_UID, 'find')) return { paths: {}, schemas: {} };
  const get = { operationId: 'listLocales', summary: 'The locales entries may be written in, the default one marked', tags: ['Locales'], responses: { 200: { description: 'OK', ...json({ type: 'array', items: ref('Locale') }) }, ...failures({ 401: 'An invalid token', 403: 'Forbidden' }) } };
  return { paths: { [`${prefix}/i18n/locales`]: { get } }, schemas: { Locale: SCHEMAS.Locale, Error: ERROR_SCHEMA } };
}

/** The account, users, roles and provider routes of the `users` option, as `grants` may call them. */
export function accountOperations(grants: Grants, prefix: string, routes: AccountRoutes, authUser: JsonSchema): { paths: Paths; schemas: Record<string, JsonSchema> } {
  const paths: Paths = {
    [`${prefix}/auth/change-password`]: post('changePassword', "Change the logged-in user's password: a new login token and the user", 'AuthChangePassword', ref('AuthAnswer'), { 400: 'Invalid fields, a wrong current password', 401: 'An invalid token', 403: 'No login token', 429: 'Too many attempts' }, LOGGED_IN),
  };
  if (routes.email) {
    paths[`${prefix}/auth/forgot-password`] = post('forgotPassword', 'Mail a reset link to the address, if it names an account (the answer does not tell)', 'AuthEmail', { type: 'object', required: ['ok'], properties: { ok: { const: true } } }, { 400: 'Not an email', 429: 'Too many attempts' });
    paths[`${prefix}/auth/reset-password`] = post('resetPassword', "Set a new password with the reset link's code: a login token and the user", 'AuthResetPassword', ref('AuthAnswer'), { 400: 'Invalid fields, an unknown or used code', 429: 'Too many attempts' });
    paths[`${prefix}/auth/send-email-confirmation`] = post('sendEmailConfirmation', 'Mail the confirmation link again to an unconfirmed user (the answer does not tell whether it did)', 'AuthEmail', { type: 'object', required: ['email', 'sent'], properties: { email: { type: 'string' }, sent: { const: true } } }, { 400: 'Not an email', 429: 'Too many attempts' });
    paths[`${prefix}/auth/email-confirmation`] = {
      get: {
        operationId: 'emailConfirmation',
        summary: "Confirm the user of the mail's link, then redirect to the confirmation page",
        tags: ['Users'],
        security: ANONYMOUS,
        parameters: [{ name: 'confirmation', in: 'query', required: true, schema: STRING }],
        responses: { 302: REDIRECT, ...failures({ 400: 'An unknown or used confirmation' }) },
      },
    };
  }
  Object.assign(paths, userRoutes(grants, prefix), roleRoutes(grants, prefix));
  for (const provider of routes.providers) {
    paths[`${prefix}/connect/${provider}`] = {
      get: { operationId: `connect_${provider}`, summary: `Log in with ${provider}: a redirect to its consent page, then to the front end's page with an access token`, tags: ['Users'], security: ANONYMOUS, responses: { 302: REDIRECT } },
    };
    paths[`${prefix}/auth/${provider}/callback`] = {
      get: {
        operationId: `callback_${provider}`,
        summary: `The ${provider} access token exchanged for a login token and the user (registered on first use)`,
        tags: ['Users'],
        security: ANONYMOUS,
        parameters: [{ name: 'access_token', in: 'query', required: true, schema: STRING }],
        responses: { 200: { description: 'OK', ...json(ref('AuthAnswer')) }, ...failures({ 400: 'No token, a token the provider refuses, a blocked user', 429: 'Too many attempts' }) },
      },
    };
  }
  const schemas = Object.fromEntries(['AuthEmail', 'AuthResetPassword', 'AuthChangePassword', 'AuthUserInput', 'UsersRole', 'UsersPermissions'].map((name) => [name, SCHEMAS[name]]));
  // A user write answers the role too, to a role that may read roles.
  const properties = (authUser as { properties?: Record<string, JsonSchema> }).properties ?? {};
  schemas.UsersUser = { ...authUser, properties: { ...properties, role: ref('UsersRole') } };
  return { paths, schemas };
}

/** `users/count`, `POST /users`, `PUT` and `DELETE /users/{id}` by the role's actions on `user`. */
function userRoutes(grants: Grants, prefix: string): Paths {
  const paths: Paths = {};
  const errors = { 400: 'Invalid fields, an email or username taken', 401: 'An invalid token', 403: 'Forbidden' };
  if (grants.can(USER_UID, 'find')) {
    paths[`${prefix}/users/count`] = { get: { operationId: 'countUsers', summary: 'The number of users (`filters` apply)', tags: ['Users'], responses: { 200: { description: 'OK', ...json({ type: 'integer', minimum: 0 }) }, ...failures({ 400: 'Invalid filters', 401: 'An invalid token', 403: 'Forbidden' }) } } };
  }
  if (grants.can(USER_UID, 'create')) {
    paths[`${prefix}/users`] = { post: { operationId: 'createUser', summary: 'Create a user', tags: ['Users'], requestBody: { required: true, ...json(ref('AuthUserInput')) }, responses: { 201: { description: 'Created', ...json(ref('UsersUser')) }, ...failures(errors) } } };
  }
  const one: Record<string, OpenApiObject> = {};
  if (grants.can(USER_UID, 'update')) {
    one.put = { operationId: 'updateUser', summary: 'Change a user', tags: ['Users'], parameters: [ID], requestBody: { required: true, ...json(ref('AuthUserInput')) }, responses: { 200: { description: 'OK', ...json(ref('UsersUser')) }, ...failures({ ...errors, 404: 'No such user' }) } };
  }
  if (grants.can(USER_UID, 'delete')) {
    one.delete = { operationId: 'deleteUser', summary: 'Delete a user: the user as it was (no content when there was none)', tags: ['Users'], parameters: [ID], responses: { 200: { description: 'OK', ...json(ref('UsersUser')) }, 204: { description: 'No such user' }, ...failures({ 401: 'An invalid token', 403: 'Forbidden' }) } };
  }
  if (Object.keys(one).length) paths[`${prefix}/users/{id}`] = one;
  return paths;
}

/** The read-only roles routes: `find` on `role` lists them and every action, `findOne` one role with its permissions. */
function roleRoutes(grants: Grants, prefix: string): Paths {
  const paths: Paths = {};
  const errors = failures({ 401: 'An invalid token', 403: 'Forbidden' });
  if (grants.can(ROLE_UID, 'find')) {
    paths[`${prefix}/users-permissions/roles`] = { get: { operationId: 'findRoles', summary: 'The roles, each with its number of users', tags: ['Users'], responses: { 200: { description: 'OK', ...json({ type: 'object', required: ['roles'], properties: { roles: { type: 'array', items: ref('UsersRole') } } }) }, ...errors } } };
    paths[`${prefix}/users-permissions/permissions`] = { get: { operationId: 'findPermissions', summary: 'Every action there is, none enabled', tags: ['Users'], responses: { 200: { description: 'OK', ...json({ type: 'object', required: ['permissions'], properties: { permissions: ref('UsersPermissions') } }) }, ...errors } } };
  }
  if (grants.can(ROLE_UID, 'findOne')) {
    const role = { allOf: [ref('UsersRole'), { type: 'object', required: ['permissions'], properties: { permissions: ref('UsersPermissions') } }] };
    paths[`${prefix}/users-permissions/roles/{id}`] = { get: { operationId: 'findOneRole', summary: 'One role with what permissions.yaml lets it do', tags: ['Users'], parameters: [ID], responses: { 200: { description: 'OK', ...json({ type: 'object', required: ['role'], properties: { role } }) }, ...failures({ 401: 'An invalid token', 403: 'Forbidden', 404: 'No such role' }) } } };
  }
  return paths;
}
