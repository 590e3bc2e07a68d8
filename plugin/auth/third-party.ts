/**
 * Third-party login as Strapi's users-permissions does it, through `grant`:
 *
 *   GET /connect/:provider          → the provider's page, where the user lets the API in
 *   GET /connect/:provider/callback → (the provider's return) the code exchanged for a token, and
 *                                     the user sent to the front end's page with ?access_token=…
 *   GET /auth/:provider/callback?access_token=… → the profile read with the token: the user of
 *                                     that provider and email, created at the first login; `{ jwt, user }`
 *
 * Plain data in and out: the routes (provider-routes.ts) carry grant's session in a signed cookie.
 * Beside Strapi: an OAuth `state` ties the return to the browser that left, and an email the
 * provider has not verified is no email.
 */
import { createRequire } from 'node:module';
import type { GrantConfig } from 'grant';
import { ApiError, ApplicationError } from '../errors.js';
import type { WriteEngine } from '../write/write.js';
import type { EndUsers, LoginAnswer } from './end-users.js';
import type { ProviderConfig, ProviderName } from './provider-options.js';
import { fetchProfile, ProfileError } from './provider-profiles.js';
import { insertProviderUser } from './user-writes.js';

/** grant's core: a request's method, provider, query and session in; where to go and the session out. */
type GrantPipe = (input: { method: string; params: { provider: string; override?: string }; query: Record<string, unknown>; session: Record<string, unknown> }) => Promise<{ location?: string; session: Record<string, unknown> }>;

const require = createRequire(import.meta.url);
const createGrant = require('grant/lib/grant.js') as (options: { config: GrantConfig }) => GrantPipe;

export interface GrantStep {
  /** Where to send the browser. */
  readonly location: string;
  /** grant's session, for the cookie. */
  readonly session: Record<string, unknown>;
}

/** Strapi's check of a `?callback=`: the configured page's origin and path, any query. */
function sameCallback(given: string, configured: string): boolean {
  try {
    const [a, b] = [new URL(given), new URL(configured)];
    return a.origin === b.origin && a.pathname === b.pathname;
  } catch {
    return false;
  }
}

export class ThirdPartyLogin {
  private readonly grant: GrantPipe;

  constructor(
    private readonly engine: WriteEngine,
    private readonly users: EndUsers,
    private readonly providers: ReadonlyMap<ProviderName, ProviderConfig>,
    /** `<serverUrl><prefix>/connect`: where grant's routes are, and providers send users back. */
    connectUrl: string,
  ) {
    const config: GrantConfig = { defaults: { prefix: new URL(connectUrl).pathname, state: true, transport: 'querystring' } };
    for (const provider of providers.values()) {
      config[provider.name] = {
        key: provider.key,
        secret: provider.secret,
        scope: [...provider.scope],
        callback: provider.callback,
        redirect_uri: `${connectUrl}/${provider.name}/callback`,
        authorize_url: provider.authorizeUrl,
        access_url: provider.accessUrl,
        dynamic: ['callback'],
      };
    }
    this.grant = createGrant({ config });
  }

  private provider(name: string): ProviderConfig {
    const provider = this.providers.get(name as ProviderName);
    if (!provider) throw new ApplicationError('This provider is disabled');
    return provider;
  }

  /** `GET /connect/:provider`: the provider's page; `callback`, when given, replaces the front end's page of the same origin and path. */
  async connect(name: string, query: Record<string, unknown>): Promise<GrantStep> {
    const provider = this.provider(name);
    const callback = query.callback;
    if (callback !== undefined && (typeof callback !== 'string' || !sameCallback(callback, provider.callback))) {
      throw new ApiError('ValidationError', 'Invalid callback URL provided', { callback });
    }
    return this.step(await this.grant({ method: 'GET', params: { provider: name }, query: callback === undefined ? {} : { callback }, session: {} }));
  }

  /** `GET /connect/:provider/callback`: the provider's return, to the front end's page with the token or the error. */
  async providerReturn(name: string, query: Record<string, unknown>, session: Record<string, unknown>): Promise<GrantStep> {
    this.provider(name);
    // Without the session of this provider's dance, grant answers as Strapi's does: to `/` with the error.
    return this.step(await this.grant({ method: 'GET', params: { provider: name, override: 'callback' }, query, session: session.provider === name ? session : {} }));
  }

  /** `GET /auth/:provider/callback?access_token=…`: the user of the token's profile, logged in (created at its first login). */
  async login(name: string, query: Record<string, unknown>, deadline: number): Promise<LoginAnswer> {
    const provider = this.provider(name);
    const token = [query.access_token, query.code, query.oauth_token].find((value) => typeof value === 'string' && value !== '') as string | undefined;
    if (!token) throw new ApplicationError('No access_token.');
    let profile;
    try {
      profile = await fetchProfile(provider, token);
    } catch (error) {
      if (error instanceof ProfileError) throw new ApplicationError(error.message);
      throw error;
    }
    const email = profile.email?.toLowerCase();
    if (!email) throw new ApplicationError('Email was not available.');
    const user = (await this.users.store.findAllByEmail(email)).find((found) => found.provider === name) ?? (await this.register(name, profile.username, email, deadline));
    if (user.blocked) throw new ApplicationError('Your account has been blocked by an administrator');
    return this.users.answerFor(user);
  }

  /** A new user of the provider, confirmed, with the default role of registration. */
  private async register(provider: string, username: string, email: string, deadline: number) {
    const settings = this.users.config.register;
    if (!settings) throw new ApplicationError('Register action is actually not available.');
    if ((await this.users.store.findAllByEmail(email)).length) throw new ApplicationError('Email is already taken.');
    return insertProviderUser(this.engine, this.users, { username, email, provider }, settings.defaultRole, deadline);
  }

  private step(result: { location?: string; session: Record<string, unknown> }): GrantStep {
    if (!result.location) throw new Error('grant answered no location');
    return { location: result.location, session: result.session };
  }
}
