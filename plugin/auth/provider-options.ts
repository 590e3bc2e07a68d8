/**
 * `users.providers`: third-party login as Strapi's users-permissions "Providers" settings describe
 * it, for GitHub and Google. Checked once at start; the endpoints can be pointed elsewhere (a
 * GitHub Enterprise server, a provider a test runs on loopback).
 */
import { absoluteUrl } from './email-options.js';

export type ProviderName = 'github' | 'google';

export interface ProviderOptions {
  /** The OAuth client id. */
  readonly key: string;
  /** The OAuth client secret. */
  readonly secret: string;
  /**
   * The front end's page the user is sent back to with `?access_token=…`, which it then gives to
   * `GET <prefix>/auth/<provider>/callback` (Strapi's "redirect URL to your front-end app").
   */
  readonly callback: string;
  /** Default Strapi's: `['user', 'user:email']` (GitHub), `['email']` (Google). */
  readonly scope?: readonly string[];
  /** Where the user authorizes the API (default the provider's). */
  readonly authorizeUrl?: string;
  /** Where a code is exchanged for a token (default the provider's). */
  readonly accessUrl?: string;
  /** Where the profile is read: GitHub's API root, Google's tokeninfo (default the provider's). */
  readonly profileUrl?: string;
}

export type UsersProvidersOptions = Readonly<Partial<Record<ProviderName, ProviderOptions>>>;

export interface ProviderConfig {
  readonly name: ProviderName;
  readonly key: string;
  readonly secret: string;
  readonly callback: string;
  readonly scope: readonly string[];
  readonly authorizeUrl: string;
  readonly accessUrl: string;
  readonly profileUrl: string;
}

const DEFAULTS: Readonly<Record<ProviderName, Omit<ProviderConfig, 'name' | 'key' | 'secret' | 'callback'>>> = {
  github: {
    scope: ['user', 'user:email'],
    authorizeUrl: 'https://github.com/login/oauth/authorize',
    accessUrl: 'https://github.com/login/oauth/access_token',
    profileUrl: 'https://api.github.com',
  },
  google: {
    scope: ['email'],
    authorizeUrl: 'https://accounts.google.com/o/oauth2/v2/auth',
    accessUrl: 'https://oauth2.googleapis.com/token',
    profileUrl: 'https://oauth2.googleapis.com/tokeninfo',
  },
};

function text(value: unknown, option: string): string {
  if (typeof value !== 'string' || !value) throw new Error(`${option}: expected text`);
  return value;
}

function providerConfig(name: ProviderName, given: ProviderOptions): ProviderConfig {
  const at = `users.providers.${name}`;
  const stock = DEFAULTS[name];
  const url = (value: string | undefined, fallback: string, key: string) => (value === undefined ? fallback : absoluteUrl(value, `${at}.${key}`));
  if (given.scope !== undefined && !(Array.isArray(given.scope) && given.scope.every((item) => typeof item === 'string'))) throw new Error(`${at}.scope: expected a list of scopes`);
  return {
    name,
    key: text(given.key, `${at}.key`),
    secret: text(given.secret, `${at}.secret`),
    callback: absoluteUrl(given.callback, `${at}.callback`),
    scope: given.scope ?? stock.scope,
    authorizeUrl: url(given.authorizeUrl, stock.authorizeUrl, 'authorizeUrl'),
    accessUrl: url(given.accessUrl, stock.accessUrl, 'accessUrl'),
    profileUrl: url(given.profileUrl, stock.profileUrl, 'profileUrl'),
  };
}

/** The providers turned on, by name; unknown names are refused at start. */
export function providersConfig(options: UsersProvidersOptions | undefined): ReadonlyMap<ProviderName, ProviderConfig> {
  const providers = new Map<ProviderName, ProviderConfig>();
  for (const [name, given] of Object.entries(options ?? {})) {
    if (!(name in DEFAULTS)) throw new Error(`users.providers.${name}: not a provider the API knows; expected ${Object.keys(DEFAULTS).join(' or ')}`);
    if (given) providers.set(name as ProviderName, providerConfig(name as ProviderName, given));
  }
  return providers;
}
