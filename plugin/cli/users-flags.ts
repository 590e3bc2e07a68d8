/**
 * serve's end-user flags: `--users` (login, `/users/me` and login tokens, signed with `JWT_SECRET`
 * as Strapi reads it), `--register`, `--default-role TYPE`, `--email-confirmation` and
 * `--jwt-expires-in SPAN` (default `JWT_EXPIRES_IN`, else 30d). The secret is never a flag: a
 * command line is visible to every user of the machine. Mail and third-party login: account-flags.ts.
 */
import type { UsersOptions } from '../auth/options.js';
import { UsageError } from './common.js';
import { ACCOUNT_FLAGS, ACCOUNT_FLAGS_HELP, accountFlagsGiven, accountOptionsFromFlags, type AccountFlagValues } from './account-flags.js';

export const USERS_FLAGS = {
  users: { type: 'boolean', default: false },
  register: { type: 'boolean', default: false },
  'default-role': { type: 'string' },
  'email-confirmation': { type: 'boolean', default: false },
  'jwt-expires-in': { type: 'string', ...(process.env.JWT_EXPIRES_IN ? { default: process.env.JWT_EXPIRES_IN } : {}) },
  ...ACCOUNT_FLAGS,
} as const;

export const USERS_FLAGS_HELP = {
  users: 'serve end users as Strapi does: POST /api/auth/local, GET /api/users/me, login tokens signed with $JWT_SECRET',
  register: 'with --users: allow POST /api/auth/local/register',
  'default-role': ['TYPE', 'with --register: the Strapi role (up_roles.type) of new users (default authenticated)'],
  'email-confirmation': 'with --users: refuse users whose email is not confirmed, and register them unconfirmed',
  'jwt-expires-in': ['SPAN', 'with --users: the lifetime of a login token, such as 7d or 3600 (default $JWT_EXPIRES_IN, else 30d)'],
  ...ACCOUNT_FLAGS_HELP,
} as const;

interface UsersFlagValues extends AccountFlagValues {
  readonly users: boolean;
  readonly register: boolean;
  readonly 'default-role'?: string;
  readonly 'email-confirmation': boolean;
  readonly 'jwt-expires-in'?: string;
}

/** The `users` option the flags ask for, or undefined without `--users`. */
export function usersFromFlags(values: UsersFlagValues, usage: string, env: NodeJS.ProcessEnv = process.env): UsersOptions | undefined {
  if (!values.users) {
    const stray = [...(['register', 'default-role', 'email-confirmation'] as const).filter((flag) => values[flag]), ...accountFlagsGiven(values)][0];
    if (stray) throw new UsageError(`--${stray} needs --users`, usage);
    return undefined;
  }
  const jwtSecret = env.JWT_SECRET;
  if (!jwtSecret) throw new UsageError('--users needs the JWT_SECRET environment variable: the secret login tokens are signed with (the JWT_SECRET of a Strapi app whose tokens should stay valid)', usage);
  if (values['default-role'] !== undefined && !values.register) throw new UsageError('--default-role needs --register', usage);
  const expiresIn = values['jwt-expires-in'];
  return {
    jwtSecret,
    ...(expiresIn !== undefined ? { jwtExpiresIn: /^\d+$/.test(expiresIn) ? Number(expiresIn) : expiresIn } : {}),
    register: values.register ? { defaultRole: values['default-role'] } : false,
    emailConfirmation: values['email-confirmation'],
    ...accountOptionsFromFlags(values, usage, env),
  };
}
