/**
 * The account flows of Strapi's users-permissions that go through mail: forgot and reset
 * password, send and follow an email confirmation. Plain functions of plain data (the HTTP
 * routes are account-routes.ts), with Strapi's checks, answers and words, and three things
 * Strapi does not do: a reset code expires, is spent by exactly one request, and no answer, nor
 * its time, tells whether an address has an account (docs/users.md, U8 to U10).
 */
import { RateLimitError, ValidationError } from '../errors.js';
import type { WriteEngine } from '../write/write.js';
import { newConfirmationCode, newResetCode, resetCodeInForce } from './account-tokens.js';
import { parseConfirmationQuery, parseEmailBody, parseForgotPasswordBody, parseResetPasswordBody } from './body.js';
import type { EmailConfig } from './email-options.js';
import type { EndUsers, LoginAnswer } from './end-users.js';
import type { MailQueue } from './mail.js';
import { composeMail, type MailTemplate, type TemplateData } from './mail-templates.js';
import { AttemptCounter } from './rate-limit.js';
import type { StoredUser } from './user-store.js';
import { writePassword } from './user-writes.js';

export interface AccountsContext {
  readonly engine: WriteEngine;
  readonly users: EndUsers;
  readonly email: EmailConfig;
  readonly mail: MailQueue;
  /** `<serverUrl><prefix>/auth/email-confirmation`: the link of a confirmation mail, before its query. */
  readonly confirmationUrl: string;
}

/** PostgreSQL refuses a NUL in a text parameter, and no stored address holds one. */
const hasNul = (text: string) => text.includes('\u0000');

/**
 * A confirmation code as Strapi makes them: matched only in that form, since MariaDB compares
 * text without regard to case, and an altered code must not pass.
 */
const CONFIRMATION_CODE = /^[0-9a-f]{40}$/;

export class Accounts {
  /** Requests per address named in a body, whoever sends them: one inbox is not flooded from many addresses. */
  private readonly perEmail: AttemptCounter | null;

  constructor(private readonly context: AccountsContext) {
    context.users.store.checkCodeAttributes();
    const rate = context.users.config.rateLimit;
    this.perEmail = rate && new AttemptCounter(rate);
  }

  private get now(): number {
    return this.context.engine.now();
  }

  /** `POST /auth/forgot-password`: `{ ok: true }` whatever the address; a user who is not blocked is mailed a new reset code. */
  async forgotPassword(body: unknown): Promise<{ ok: true }> {
    const { email } = parseForgotPasswordBody(body);
    this.countEmail('forgot-password', email);
    const user = hasNul(email) ? null : await this.context.users.store.findByEmail(email);
    if (!user || user.blocked) return { ok: true };
    const code = newResetCode(this.now);
    await this.context.users.store.storeCode('resetPasswordToken', user.id, code, this.now);
    this.send(this.context.email.templates.resetPassword, user, { URL: this.context.email.resetPasswordUrl, TOKEN: code });
    return { ok: true };
  }

  /** `POST /auth/reset-password`: the code of a reset mail sets the password once, within its lifetime; answers `{ jwt, user }`. */
  async resetPassword(body: unknown, deadline: number): Promise<LoginAnswer> {
    const { code, password, passwordConfirmation } = parseResetPasswordBody(body);
    if (password !== passwordConfirmation) throw new ValidationError('Passwords do not match');
    const { store } = this.context.users;
    const inForce = resetCodeInForce(code, this.now, this.context.email.resetCodeLifetimeMs);
    const user = inForce ? await store.findByCode('resetPasswordToken', code) : null;
    if (!user) throw new ValidationError('Incorrect code provided');
    const written = await writePassword(this.context.engine, store, user.id, password, deadline, (trx) => store.spendCode(trx, 'resetPasswordToken', user.id, code, this.now));
    if (!written) throw new ValidationError('Incorrect code provided');
    // As Strapi answers it: the user as found, before the write.
    return this.context.users.answerFor(user);
  }

  /**
   * `POST /auth/send-email-confirmation`: `{ email, sent: true }` with the address as given, for
   * every address; only a user neither confirmed nor blocked is mailed a new confirmation.
   */
  async sendEmailConfirmation(body: unknown): Promise<{ email: string; sent: true }> {
    const { email } = parseEmailBody(body);
    this.countEmail('send-email-confirmation', email);
    const user = hasNul(email) ? null : await this.context.users.store.findByEmail(email);
    if (user && !user.confirmed && !user.blocked) await this.mailConfirmation(user);
    return { email, sent: true };
  }

  /** A new confirmation code for `user`, mailed (registration with email confirmation, and the route above). */
  async mailConfirmation(user: StoredUser): Promise<void> {
    const code = newConfirmationCode();
    await this.context.users.store.storeCode('confirmationToken', user.id, code, this.now);
    this.send(this.context.email.templates.emailConfirmation, user, { URL: this.context.confirmationUrl, CODE: code });
  }

  /** `GET /auth/email-confirmation?confirmation=…`: confirms the user of the code once; answers where to redirect. */
  async confirmEmail(query: Record<string, unknown>): Promise<{ redirect: string }> {
    const code = parseConfirmationQuery(query);
    const { store } = this.context.users;
    const user = CONFIRMATION_CODE.test(code) ? await store.findByCode('confirmationToken', code) : null;
    const confirmed = user !== null && (await store.spendCode(this.context.engine.knex, 'confirmationToken', user.id, code, this.now, { confirmed: true }));
    if (!confirmed) throw new ValidationError('Invalid token');
    return { redirect: this.context.email.confirmationRedirect ?? '/' };
  }

  private countEmail(route: string, email: string): void {
    const key = `${route} ${email.toLowerCase()}`;
    if (this.perEmail && !this.perEmail.hit(key, this.now)) throw new RateLimitError(this.perEmail.retryAfter(key, this.now));
  }

  private send(template: MailTemplate, user: StoredUser, variables: TemplateData): void {
    const to = user.publicFields.email;
    // A user without an address is answered as any other: nothing tells it apart.
    if (typeof to !== 'string' || !to) return;
    const { serverUrl, adminUrl } = this.context.email;
    this.context.mail.enqueue(composeMail(template, to, { ...variables, SERVER_URL: serverUrl, ADMIN_URL: adminUrl, USER: user.publicFields as TemplateData }));
  }
}
