/**
 * End users as Strapi's users-permissions plugin serves them: a login checks the password
 * (bcrypt, constant-time) and issues a token; a token presented later is verified and resolves
 * its user, refused when blocked (or unconfirmed, with email confirmation on) with the words
 * Strapi uses. Knows nothing of Koa: the doors (http/users/, graphql/) feed it.
 */
import bcrypt from 'bcryptjs';
import { ApplicationError, RateLimitError, UnauthorizedError, ValidationError } from '../errors.js';
import type { TokenCaller } from '../access/caller.js';
import { signUserToken, verifyToken } from './jwt.js';
import { permissionsRoleOf, type UsersConfig } from './options.js';
import { AttemptCounter } from './rate-limit.js';
import type { StoredUser, UserStore } from './user-store.js';

/**
 * The hash of a random password nobody knows, at Strapi's cost (10): compared when no user
 * matches, so an unknown identifier takes as long as a wrong password. A constant, so importing
 * the module costs nothing.
 */
const DECOY_HASH = '$2b$10$V7uuY3UcEXVsAMlHsUAJ9uAJihB0GrBJLaMXEndIrC6tlGSXeSTb.';

export interface LoginAnswer {
  readonly jwt: string;
  readonly user: Readonly<Record<string, unknown>>;
}

export class EndUsers {
  /** Failed logins per account (or per identifier that names none), from any address. */
  private readonly failures: AttemptCounter | null;

  constructor(
    readonly config: UsersConfig,
    readonly store: UserStore,
    private readonly now: () => number,
  ) {
    this.failures = config.rateLimit && new AttemptCounter(config.rateLimit);
  }

  /**
   * `POST /auth/local`, after the body's checks: Strapi's checks in Strapi's order. An account with
   * too many failed logins lately is refused before its password is compared, whichever of its
   * username or email names it; only failures count, so its owner's logins never lock it.
   */
  async login(identifier: string, password: string): Promise<LoginAnswer> {
    // No stored name holds a NUL, and PostgreSQL refuses one in a text parameter.
    const user = identifier.includes('\u0000') ? null : await this.store.findByIdentifier(identifier);
    const key = user ? `#${user.id}` : identifier.toLowerCase();
    if (this.failures?.exceeded(key, this.now())) throw new RateLimitError(this.failures.retryAfter(key, this.now()));
    const matches = await bcrypt.compare(password, user?.passwordHash ?? DECOY_HASH);
    if (!user || !user.passwordHash || !matches) {
      this.failures?.hit(key, this.now());
      throw new ValidationError('Invalid identifier or password');
    }
    if (this.config.emailConfirmation && !user.confirmed) throw new ApplicationError('Your account email is not confirmed');
    if (user.blocked) throw new ApplicationError('Your account has been blocked by an administrator');
    return this.answerFor(user);
  }

  /** `{ jwt, user }` for a user who may log in. */
  answerFor(user: StoredUser): LoginAnswer {
    return { jwt: signUserToken(user.id, this.config.jwtSecret, this.config.lifetimeSeconds, this.now()), user: user.publicFields };
  }

  /**
   * The user of a login token and its claims. A token that does not verify, or carries no `id`, is
   * `Missing or invalid credentials`; one whose user is gone, blocked or (with email confirmation)
   * unconfirmed is `Invalid credentials`: both 401s, as Strapi answers them.
   */
  async userOfToken(token: string): Promise<{ user: StoredUser; claims: Readonly<Record<string, unknown>> }> {
    const claims = verifyToken(token, this.config.jwtSecret, this.now());
    const id = claims?.id;
    if (!claims || id === undefined) throw new UnauthorizedError();
    const user = typeof id === 'number' || typeof id === 'string' ? await this.findById(id) : null;
    if (!user || user.blocked || (this.config.emailConfirmation && !user.confirmed)) throw new UnauthorizedError('Invalid credentials');
    return { user, claims: Object.freeze({ ...claims }) };
  }

  /** The caller of a bearer value shaped like a JWT: its user's role (mapped to permissions.yaml), its public fields and role, its claims. */
  async callerOf(token: string): Promise<TokenCaller> {
    const { user, claims } = await this.userOfToken(token);
    return {
      role: permissionsRoleOf(this.config, user.roleType),
      identified: true,
      user: Object.freeze({ ...user.publicFields, role: user.role }),
      claims,
    };
  }

  /** A user by the `id` of a token: a number, or the digits of one (Strapi's database lookup casts them). */
  private findById(id: number | string): Promise<StoredUser | null> {
    const value = typeof id === 'number' ? id : /^\d{1,15}$/.test(id) ? Number(id) : NaN;
    return Number.isSafeInteger(value) ? this.store.findById(value) : Promise.resolve(null);
  }
}
