/**
 * The `users` option of contentApi(): end users who log in, as Strapi v4's users-permissions
 * plugin serves them (docs/users.md). Checked once at start; a mistake is an error there.
 */
import { DEFAULT_JWT_EXPIRES_IN, expiresInSeconds } from './jwt.js';
import { DEFAULT_RATE_LIMIT, type RateLimitOptions } from './rate-limit.js';
import { absoluteUrl, emailConfig, type EmailConfig, type UsersEmailOptions } from './email-options.js';
import { providersConfig, type ProviderConfig, type ProviderName, type UsersProvidersOptions } from './provider-options.js';

export interface UsersRegisterOptions {
  /** The `up_roles.type` a new user is given (default `authenticated`, as Strapi's `default_role`). */
  readonly defaultRole?: string;
  /**
   * Attributes of the user type a new user may set beside username, email and password (Strapi's
   * `register.allowedFields`); default: its other non-private attributes, as Strapi does.
   */
  readonly allowedFields?: readonly string[];
}

export interface UsersOptions {
  /** The secret login tokens are signed with: Strapi's `jwtSecret` (its `JWT_SECRET`), for tokens valid on both. */
  readonly jwtSecret: string;
  /** A login token's lifetime: seconds, or a timespan such as `'30d'` (default `'30d'`, as Strapi). */
  readonly jwtExpiresIn?: string | number;
  /** `POST <prefix>/auth/local/register`: off by default (a 400, as Strapi answers with `allow_register` off). */
  readonly register?: false | true | UsersRegisterOptions;
  /** Refuse users whose email is not confirmed, at login and with their tokens (Strapi's `email_confirmation`; default false). */
  readonly emailConfirmation?: boolean;
  /**
   * The permissions.yaml role of each Strapi role (`up_roles.type` → role name); a type not listed
   * is the role of the same name. A user without a role is `authenticated`.
   */
  readonly roles?: Readonly<Record<string, string>>;
  /** Login and register attempts allowed per address, and failed logins per identifier (default 10 a minute); `false`: no limit. */
  readonly rateLimit?: false | Partial<RateLimitOptions>;
  /**
   * The API's public URL (Strapi's `server.url`), such as `https://api.example.com`: links in
   * mails and the address third-party providers send their users back to are made from it, never
   * from a request, whose Host header a caller chooses. Required with `email` or `providers`.
   */
  readonly serverUrl?: string;
  /**
   * The mails of forgot-password, email confirmation and registration with `emailConfirmation`:
   * the sender, URLs and templates (email-options.ts). Without it those routes are not served.
   */
  readonly email?: UsersEmailOptions;
  /** Third-party login (provider-options.ts): `{ github: { key, secret, callback }, google: … }`. */
  readonly providers?: UsersProvidersOptions;
}

/** The option as the routes use it, with every default applied. */
export interface UsersConfig {
  readonly jwtSecret: string;
  readonly lifetimeSeconds: number;
  readonly register: { readonly defaultRole: string; readonly allowedFields: readonly string[] | null } | null;
  readonly emailConfirmation: boolean;
  readonly roles: ReadonlyMap<string, string>;
  readonly rateLimit: RateLimitOptions | null;
  readonly serverUrl: string | null;
  readonly email: EmailConfig | null;
  readonly providers: ReadonlyMap<ProviderName, ProviderConfig>;
}

/** The role of a user without one, and Strapi's default role of new users. */
export const AUTHENTICATED_ROLE = 'authenticated';

export function usersConfig(options: UsersOptions): UsersConfig {
  if (typeof options.jwtSecret !== 'string' || options.jwtSecret === '') {
    throw new Error('users.jwtSecret is required: the secret login tokens are signed with (Strapi reads it from JWT_SECRET)');
  }
  const register = options.register === true ? {} : options.register || null;
  const rateLimit = options.rateLimit === false ? null : { ...DEFAULT_RATE_LIMIT, ...options.rateLimit };
  if (rateLimit && !(Number.isInteger(rateLimit.max) && rateLimit.max > 0 && Number.isInteger(rateLimit.interval) && rateLimit.interval > 0)) {
    throw new Error('users.rateLimit: max (attempts) and interval (ms) are whole positive numbers');
  }
  const serverUrl = options.serverUrl === undefined ? null : absoluteUrl(options.serverUrl, 'users.serverUrl');
  if (!serverUrl && options.email) throw new Error('users.serverUrl is required with users.email: the API\'s public URL, such as https://api.example.com, which the links of mails point at');
  const providers = providersConfig(options.providers);
  if (!serverUrl && providers.size) throw new Error('users.serverUrl is required with users.providers: the API\'s public URL, such as https://api.example.com, where providers send users back');
  return {
    jwtSecret: options.jwtSecret,
    lifetimeSeconds: expiresInSeconds(options.jwtExpiresIn ?? DEFAULT_JWT_EXPIRES_IN),
    register: register && { defaultRole: register.defaultRole ?? AUTHENTICATED_ROLE, allowedFields: register.allowedFields ?? null },
    emailConfirmation: options.emailConfirmation === true,
    roles: new Map(Object.entries(options.roles ?? {})),
    rateLimit,
    serverUrl,
    email: options.email ? emailConfig(options.email, serverUrl!) : null,
    providers,
  };
}

/** The permissions.yaml role of a user whose Strapi role has `type` (null: no role). */
export function permissionsRoleOf(config: UsersConfig, type: string | null): string {
  if (type === null) return AUTHENTICATED_ROLE;
  return config.roles.get(type) ?? type;
}
