/**
 * serve's flags for the mailed account flows and third-party login, with `--users`: the API's
 * public URL (`--server-url`), mail by SMTP (`--smtp-host`, `--smtp-port`, `--smtp-user`,
 * `--smtp-secure`, `--mail-from`; the password from `SMTP_PASSWORD`), the front end's pages
 * (`--reset-password-url`, `--confirmation-redirect`), and GitHub and Google login
 * (`--github-callback URL` turns it on; the client id by `--github-client-id` or
 * `GITHUB_CLIENT_ID`, the secret from `GITHUB_CLIENT_SECRET`; Google's alike). Secrets are never
 * flags: a command line is visible to every user of the machine.
 */
import type { UsersOptions } from '../auth/options.js';
import type { UsersProvidersOptions } from '../auth/provider-options.js';
import { smtpSender } from '../auth/mail.js';
import { UsageError } from './common.js';

const PROVIDERS = ['github', 'google'] as const;
type Provider = (typeof PROVIDERS)[number];

export const ACCOUNT_FLAGS = {
  'server-url': { type: 'string' },
  'smtp-host': { type: 'string' },
  'smtp-port': { type: 'string' },
  'smtp-user': { type: 'string' },
  'smtp-secure': { type: 'boolean', default: false },
  'mail-from': { type: 'string' },
  'reset-password-url': { type: 'string' },
  'confirmation-redirect': { type: 'string' },
  'github-client-id': { type: 'string' },
  'github-callback': { type: 'string' },
  'google-client-id': { type: 'string' },
  'google-callback': { type: 'string' },
} as const;

export const ACCOUNT_FLAGS_HELP = {
  'server-url': ['URL', "with --users: the API's public URL, which mails' links and providers' returns point at (needed by --smtp-host and the providers)"],
  'smtp-host': ['HOST', 'with --users: send the account mails (forgot password, email confirmation) through this SMTP server; its password from $SMTP_PASSWORD'],
  'smtp-port': ['PORT', 'with --smtp-host: the SMTP port (default 587, or 465 with --smtp-secure)'],
  'smtp-user': ['USER', 'with --smtp-host: log in to the SMTP server as USER, with $SMTP_PASSWORD'],
  'smtp-secure': 'with --smtp-host: TLS from the first byte (port 465) rather than STARTTLS',
  'mail-from': ['ADDRESS', 'with --smtp-host: the From of the mails, such as "Shop <no-reply@example.com>" (required)'],
  'reset-password-url': ['URL', "with --smtp-host: the front end's reset page the forgot-password mail links to (?code=…)"],
  'confirmation-redirect': ['URL', 'with --smtp-host: where a followed confirmation link sends the user (default /)'],
  'github-client-id': ['ID', 'with --github-callback: the OAuth client id (default $GITHUB_CLIENT_ID); its secret from $GITHUB_CLIENT_SECRET'],
  'github-callback': ['URL', "with --users: turn GitHub login on; the front end's page that receives ?access_token=…"],
  'google-client-id': ['ID', 'with --google-callback: the OAuth client id (default $GOOGLE_CLIENT_ID); its secret from $GOOGLE_CLIENT_SECRET'],
  'google-callback': ['URL', "with --users: turn Google login on; the front end's page that receives ?access_token=…"],
} as const;

export type AccountFlagValues = { readonly [K in keyof typeof ACCOUNT_FLAGS]?: (typeof ACCOUNT_FLAGS)[K]['type'] extends 'boolean' ? boolean : string };

/** The names of the account flags given, for `--X needs --users`. */
export function accountFlagsGiven(values: AccountFlagValues): string[] {
  return (Object.keys(ACCOUNT_FLAGS) as (keyof typeof ACCOUNT_FLAGS)[]).filter((flag) => values[flag] !== undefined && values[flag] !== false);
}

function smtpPort(text: string | undefined, usage: string): number | undefined {
  if (text === undefined) return undefined;
  const port = Number(text);
  if (!/^\d+$/.test(text) || port < 1 || port > 65_535) throw new UsageError(`--smtp-port: expected a port number, got "${text}"`, usage);
  return port;
}

/** The `email` part of the `users` option, or undefined without `--smtp-host`. */
function emailFromFlags(values: AccountFlagValues, usage: string, env: NodeJS.ProcessEnv): UsersOptions['email'] {
  const host = values['smtp-host'];
  if (host === undefined) {
    const stray = (['smtp-port', 'smtp-user', 'smtp-secure', 'mail-from', 'reset-password-url', 'confirmation-redirect'] as const).find((flag) => values[flag] !== undefined && values[flag] !== false);
    if (stray) throw new UsageError(`--${stray} needs --smtp-host`, usage);
    return undefined;
  }
  const from = values['mail-from'];
  if (!from) throw new UsageError('--smtp-host needs --mail-from: the From of the account mails', usage);
  const user = values['smtp-user'];
  const pass = env.SMTP_PASSWORD;
  if (user !== undefined && !pass) throw new UsageError('--smtp-user needs the SMTP_PASSWORD environment variable: the password is never a flag', usage);
  const port = smtpPort(values['smtp-port'], usage);
  const sender = smtpSender({ host, from, secure: values['smtp-secure'] === true, ...(port !== undefined ? { port } : {}), ...(user !== undefined ? { auth: { user, pass: pass! } } : {}) });
  return {
    sender,
    // Strapi's stock sender name, with the address the flag gives.
    resetPassword: { from: mailbox(from) },
    emailConfirmation: { from: mailbox(from) },
    ...(values['reset-password-url'] !== undefined ? { resetPasswordUrl: values['reset-password-url'] } : {}),
    ...(values['confirmation-redirect'] !== undefined ? { confirmationRedirect: values['confirmation-redirect'] } : {}),
  };
}

/** `Name <address>` or a bare address, as the templates' `from` takes it. */
function mailbox(text: string): { name: string; email: string } {
  const match = /^\s*(.*?)\s*<([^>]+)>\s*$/.exec(text);
  return match ? { name: match[1] || match[2], email: match[2] } : { name: text, email: text };
}

function providersFromFlags(values: AccountFlagValues, usage: string, env: NodeJS.ProcessEnv): UsersProvidersOptions {
  const providers: Partial<Record<Provider, { key: string; secret: string; callback: string }>> = {};
  for (const name of PROVIDERS) {
    const callback = values[`${name}-callback`];
    const flagKey = values[`${name}-client-id`];
    const upper = name.toUpperCase();
    if (callback === undefined) {
      if (flagKey !== undefined) throw new UsageError(`--${name}-client-id needs --${name}-callback`, usage);
      continue;
    }
    const key = flagKey ?? env[`${upper}_CLIENT_ID`];
    if (!key) throw new UsageError(`--${name}-callback needs the client id: --${name}-client-id or $${upper}_CLIENT_ID`, usage);
    const secret = env[`${upper}_CLIENT_SECRET`];
    if (!secret) throw new UsageError(`--${name}-callback needs the ${upper}_CLIENT_SECRET environment variable: the secret is never a flag`, usage);
    providers[name] = { key, secret, callback };
  }
  return providers;
}

/** What the account flags add to the `users` option. */
export function accountOptionsFromFlags(values: AccountFlagValues, usage: string, env: NodeJS.ProcessEnv): Partial<UsersOptions> {
  const email = emailFromFlags(values, usage, env);
  const providers = providersFromFlags(values, usage, env);
  const serverUrl = values['server-url'];
  if (!serverUrl && (email || Object.keys(providers).length)) throw new UsageError(`--${email ? 'smtp-host' : `${Object.keys(providers)[0]}-callback`} needs --server-url: the API's public URL, such as https://api.example.com`, usage);
  return { ...(serverUrl !== undefined ? { serverUrl } : {}), ...(email ? { email } : {}), ...(Object.keys(providers).length ? { providers } : {}) };
}
