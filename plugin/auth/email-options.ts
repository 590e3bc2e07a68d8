/**
 * `users.email`: the mails of the account flows (docs/users.md), as Strapi's users-permissions
 * advanced settings and email templates describe them, and the sender they go through. Checked
 * once at start.
 */
import { expiresInSeconds } from './jwt.js';
import type { MailSender } from './mail.js';
import { STOCK_TEMPLATES, type MailTemplate } from './mail-templates.js';

export interface UsersEmailOptions {
  /** Where mails go: `smtpSender({ host, port, auth, from })`, or any `{ send(message) }`. */
  readonly sender: MailSender;
  /** `<%= ADMIN_URL %>` in a template (default `<users.serverUrl>/admin`, as Strapi's). */
  readonly adminUrl?: string;
  /** The front end's page that takes the reset code, `<%= URL %>` of the reset mail (Strapi's `email_reset_password`; default none). */
  readonly resetPasswordUrl?: string | null;
  /** Where a confirmed user is redirected (Strapi's `email_confirmation_redirection`; default `/`). */
  readonly confirmationRedirect?: string | null;
  /** The reset mail's template; what it leaves out is Strapi's stock template. */
  readonly resetPassword?: Partial<MailTemplate>;
  /** The confirmation mail's template; what it leaves out is Strapi's stock template. */
  readonly emailConfirmation?: Partial<MailTemplate>;
  /** How long a reset code is accepted: seconds, or a timespan such as `'1h'` (default `'1h'`). */
  readonly resetCodeExpiresIn?: string | number;
}

export interface EmailConfig {
  readonly sender: MailSender;
  /** `users.serverUrl`: the link of a confirmation mail is `<serverUrl><prefix>/auth/email-confirmation?confirmation=…`. */
  readonly serverUrl: string;
  readonly adminUrl: string;
  readonly resetPasswordUrl: string | null;
  readonly confirmationRedirect: string | null;
  readonly templates: { readonly resetPassword: MailTemplate; readonly emailConfirmation: MailTemplate };
  readonly resetCodeLifetimeMs: number;
}

export const DEFAULT_RESET_CODE_EXPIRES_IN = '1h';

/** An absolute http(s) URL without its trailing slash; throws naming `option` otherwise. */
export function absoluteUrl(value: unknown, option: string): string {
  let url: URL | null = null;
  try {
    url = typeof value === 'string' ? new URL(value) : null;
  } catch {
    // reported below
  }
  if (!url || !/^https?:$/.test(url.protocol)) throw new Error(`${option}: expected an absolute http(s) URL, such as https://api.example.com`);
  return url.toString().replace(/\/+$/, '');
}

function optionalText(value: unknown, option: string): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string' || !value) throw new Error(`${option}: expected a URL, or null`);
  return value;
}

function template(given: Partial<MailTemplate> | undefined, stock: MailTemplate, option: string): MailTemplate {
  for (const key of ['subject', 'message', 'replyTo'] as const) {
    if (given?.[key] !== undefined && typeof given[key] !== 'string') throw new Error(`${option}.${key}: expected text`);
  }
  return { ...stock, ...given };
}

/** The option checked; `serverUrl` is `users.serverUrl`, checked already. */
export function emailConfig(options: UsersEmailOptions, serverUrl: string): EmailConfig {
  if (typeof options.sender?.send !== 'function') throw new Error('users.email.sender: expected a mail sender, such as smtpSender({ host, port, auth, from })');
  return {
    sender: options.sender,
    serverUrl,
    adminUrl: options.adminUrl === undefined ? `${serverUrl}/admin` : absoluteUrl(options.adminUrl, 'users.email.adminUrl'),
    resetPasswordUrl: optionalText(options.resetPasswordUrl, 'users.email.resetPasswordUrl'),
    confirmationRedirect: optionalText(options.confirmationRedirect, 'users.email.confirmationRedirect'),
    templates: {
      resetPassword: template(options.resetPassword, STOCK_TEMPLATES.resetPassword, 'users.email.resetPassword'),
      emailConfirmation: template(options.emailConfirmation, STOCK_TEMPLATES.emailConfirmation, 'users.email.emailConfirmation'),
    },
    resetCodeLifetimeMs: expiresInSeconds(options.resetCodeExpiresIn ?? DEFAULT_RESET_CODE_EXPIRES_IN, 'users.email.resetCodeExpiresIn') * 1000,
  };
}
