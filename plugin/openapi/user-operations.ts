/**
 * The end-user routes in the OpenAPI document, when the API serves them (the `users` option):
 * login, registration when it is on, and `/users/me`, with the flat user Strapi answers there and
 * the login token's security scheme.
 */
import type { Registry } from '../schema/registry.js';
import { USER_UID } from '../schema/users-permissions.js';
import { ref, type JsonSchema } from './names.js';
import type { OpenApiObject } from './parameters.js';
import { ERROR_SCHEMA, scalarSchema, VALIDATION_ERROR_SCHEMA } from './response-schemas.js';

/** The schema names this file declares, kept from model schemas. */
export const USER_SCHEMA_NAMES = ['AuthLogin', 'AuthRegister', 'AuthUser', 'AuthAnswer'] as const;

export const LOGIN_TOKEN_SCHEME = { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'A login token of an end user, from POST /auth/local' };

export interface UserOperations {
  readonly paths: Record<string, Record<string, OpenApiObject>>;
  readonly schemas: Record<string, JsonSchema>;
}

function json(schema: JsonSchema): OpenApiObject {
  return { content: { 'application/json': { schema } } };
}

const STRING = { type: 'string', minLength: 1 };

export function userOperations(registry: Registry, prefix: string, register: boolean): UserOperations {
  const user = registry.models.get(USER_UID);
  if (!user) return { paths: {}, schemas: {} };
  const fields: Record<string, JsonSchema> = { id: { type: 'integer' } };
  for (const attribute of user.defaultFields) fields[attribute.name] = scalarSchema(user, attribute);
  const schemas: Record<string, JsonSchema> = {
    AuthLogin: { type: 'object', required: ['identifier', 'password'], properties: { identifier: STRING, password: STRING } },
    AuthRegister: { type: 'object', required: ['username', 'email', 'password'], properties: { username: STRING, email: { type: 'string', format: 'email' }, password: STRING } },
    AuthUser: { type: 'object', required: Object.keys(fields), additionalProperties: false, properties: fields },
    AuthAnswer: { type: 'object', required: ['user'], additionalProperties: false, properties: { jwt: { type: 'string' }, user: ref('AuthUser') } },
    Error: ERROR_SCHEMA,
    ValidationError: VALIDATION_ERROR_SCHEMA,
  };
  const failures = (statuses: Record<number, string>) =>
    Object.fromEntries(Object.entries(statuses).map(([status, description]) => [status, { description, ...json(ref(status === '400' ? 'ValidationError' : 'Error')) }]));
  const paths: Record<string, Record<string, OpenApiObject>> = {
    [`${prefix}/auth/local`]: {
      post: {
        operationId: 'login',
        summary: 'Log in with a username or email and a password: a login token and the user',
        tags: ['Users'],
        security: [{}],
        requestBody: { required: true, ...json(ref('AuthLogin')) },
        responses: { 200: { description: 'OK', ...json(ref('AuthAnswer')) }, ...failures({ 400: 'Invalid identifier or password, a blocked or unconfirmed user', 429: 'Too many attempts' }) },
      },
    },
    [`${prefix}/users/me`]: {
      get: {
        operationId: 'me',
        summary: 'The user of the login token',
        tags: ['Users'],
        security: [{ loginToken: [] }],
        responses: { 200: { description: 'OK', ...json(ref('AuthUser')) }, ...failures({ 401: 'An invalid or expired token, a blocked user', 403: 'No login token' }) },
      },
    },
  };
  if (register) {
    paths[`${prefix}/auth/local/register`] = {
      post: {
        operationId: 'register',
        summary: 'Register a user with the default role: a login token (none with email confirmation) and the user',
        tags: ['Users'],
        security: [{}],
        requestBody: { required: true, ...json(ref('AuthRegister')) },
        responses: { 200: { description: 'OK', ...json(ref('AuthAnswer')) }, ...failures({ 400: 'Invalid fields, an email or username taken', 429: 'Too many attempts' }) },
      },
    };
  }
  return { paths, schemas };
}
