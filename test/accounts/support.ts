/**
 * What the accounts suites share: the cases recorded from Strapi 4.26.2 (test/accounts/recorded,
 * see its README), and an API over a fresh copy of the recorded database that behaves as the
 * reference did under a case's settings: the `users` option with its mails going to a loopback
 * mail server, and permissions.yaml granting the locales as the reference's roles had them.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { readGroupedCases, readGroupedIndex } from '../support/grouped-cases.js';
import { join } from 'node:path';
import { smtpSender, type MailMessage, type MailSender } from '../../plugin/auth/mail.js';
import type { UsersEmailOptions } from '../../plugin/auth/email-options.js';
import type { UsersOptions } from '../../plugin/auth/options.js';
import type { ProviderOptions } from '../../plugin/auth/provider-options.js';
import { repoRoot, type ServedApi } from '../support/api.js';
import { linkIn, type MailBox, type ReceivedMail } from '../support/mail-box.js';
import type { FreshFixture } from '../writes/support/fixture.js';
import { serveUsers } from '../auth/support.js';

export const RECORDED_DIR = join(repoRoot, 'test', 'accounts', 'recorded');

/** The public URL the replay's API is given; recorded mails say `<server>` where the reference's stood. */
export const SERVER_URL = 'https://api.example.com';

export interface Settings {
  readonly register: boolean;
  readonly emailConfirmation: boolean;
  readonly resetPasswordUrl: string | null;
  readonly confirmationRedirect: string | null;
  readonly templates: 'stock' | 'custom';
  readonly locales: { readonly public: boolean; readonly authenticated: boolean };
  /** The users-permissions actions the Authenticated role held beside its stock ones (`user.create`, `role.find`…). */
  readonly authenticated: readonly string[];
  /** The third-party providers turned on, with PROVIDERS' settings. */
  readonly providers: readonly ('github' | 'google')[];
}

/** What the reference's store held for a provider turned on (test/accounts/cases.mjs). */
const PROVIDERS: Readonly<Record<'github' | 'google', ProviderOptions>> = {
  github: { key: 'github-client-id', secret: 'github-client-secret', callback: 'https://front.example.com/connect/github/redirect', scope: ['user', 'user:email'] },
  google: { key: 'google-client-id', secret: 'google-client-secret', callback: 'https://front.example.com/connect/google/redirect', scope: ['email'] },
};

export interface RecordedMail {
  readonly to: readonly string[];
  readonly from: string | null;
  readonly replyTo: string | null;
  readonly subject: string | null;
  readonly text: string | null;
  readonly html: string | null;
}

export interface RecordedCase {
  readonly seq: number;
  readonly group: string;
  readonly name: string;
  readonly settings: Settings;
  readonly address: string;
  readonly request: {
    readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE';
    readonly path: string;
    readonly body?: unknown;
    readonly bearer?: { readonly from?: string; readonly token?: string };
  };
  readonly save?: string;
  readonly keep?: { readonly name: string; readonly marker: string };
  readonly status: number;
  readonly response: unknown;
  readonly responseText?: string;
  readonly location?: string;
  readonly mails: readonly RecordedMail[];
}

export const JWT_SECRET = readGroupedIndex(RECORDED_DIR).jwtSecret;

/** Every case recorded in `dir` (the fixture's by default, or an app's of test/accounts/apps), in `seq` order. */
export function recordedCases(dir = RECORDED_DIR): RecordedCase[] {
  return readGroupedCases<RecordedCase>(dir);
}

/** permissions.yaml's action for each users-permissions action a case may grant: Strapi's count is `find`, its destroy `delete`. */
const PLUGIN_ACTIONS: Readonly<Record<string, [type: string, action: string]>> = {
  'user.count': ['user', 'find'],
  'user.create': ['user', 'create'],
  'user.update': ['user', 'update'],
  'user.destroy': ['user', 'delete'],
  'role.find': ['role', 'find'],
  'role.findOne': ['role', 'findOne'],
  'permissions.getPermissions': ['role', 'find'],
};

/** What the small fixture's Public role reads. */
export const FIXTURE_PUBLIC = `
    article: [find, findOne]
    category: [find, findOne]
    restaurant: [findOne]
    file: [find, findOne]
    user: [find, findOne]`;

/**
 * The Public role's grants (`publicGrants`: the fixture's, or none on an app's fresh database), the
 * locales to each role the settings grant them to, and the Authenticated role's actions on users.
 */
export function permissionsFor(settings: Settings, publicGrants = FIXTURE_PUBLIC): string {
  const authenticated = new Map<string, Set<string>>();
  if (settings.locales.authenticated) authenticated.set('locale', new Set(['find']));
  // Strapi's role writes have no action here: roles live in permissions.yaml.
  for (const granted of settings.authenticated.filter((action) => action in PLUGIN_ACTIONS)) {
    const [type, action] = PLUGIN_ACTIONS[granted];
    authenticated.set(type, new Set([...(authenticated.get(type) ?? []), action]));
  }
  const lines = [...authenticated].map(([type, actions]) => `\n    ${type}: [${[...actions].join(', ')}]`).join('');
  const publicLines = `${publicGrants}${settings.locales.public ? '\n    locale: [find]' : ''}`;
  return `roles:
  public:${publicLines || ' {}'}
  authenticated:${lines || ' {}'}
`;
}

/** The senders and templates the reference had: Strapi's stock templates (its sender name), or the recording's custom ones. */
const STOCK_FROM = { name: 'Administration Panel', email: 'no-reply@strapi.io' };

/** The recording's custom templates (custom-templates.json, in Strapi's store shape) as the option takes them. */
function customTemplates(): Pick<UsersEmailOptions, 'resetPassword' | 'emailConfirmation'> {
  type Stored = { from: { name: string; email: string }; response_email: string; object: string; message: string };
  const stored = JSON.parse(readFileSync(join(repoRoot, 'test', 'accounts', 'custom-templates.json'), 'utf8')) as Record<'reset_password' | 'email_confirmation', Stored>;
  const template = ({ from, response_email, object, message }: Stored) => ({ from, replyTo: response_email, subject: object, message });
  return { resetPassword: template(stored.reset_password), emailConfirmation: template(stored.email_confirmation) };
}

/** A sender to the loopback mail box that knows how many mails it is still handing over. */
export class CountingSender implements MailSender {
  private pending = 0;
  private readonly smtp: MailSender;

  constructor(box: MailBox) {
    this.smtp = smtpSender({ host: '127.0.0.1', port: box.port, from: 'Strapi <no-reply@strapi.io>' });
  }

  async send(message: MailMessage): Promise<void> {
    this.pending += 1;
    try {
      await this.smtp.send(message);
    } finally {
      this.pending -= 1;
    }
  }

  /** Resolves once every mail handed to it has been accepted by the mail box. */
  async idle(): Promise<void> {
    do await new Promise((done) => setTimeout(done, 5));
    while (this.pending > 0);
  }

  close(): void | Promise<void> {
    return this.smtp.close?.();
  }
}

/** The `users` option that behaves as the reference did with `settings` in its store. */
export function usersOption(settings: Settings, sender: MailSender, more: Partial<UsersOptions> = {}): UsersOptions {
  const templates = settings.templates === 'custom' ? customTemplates() : { resetPassword: { from: STOCK_FROM }, emailConfirmation: { from: STOCK_FROM } };
  return {
    jwtSecret: JWT_SECRET,
    register: settings.register,
    emailConfirmation: settings.emailConfirmation,
    serverUrl: SERVER_URL,
    providers: Object.fromEntries(settings.providers.map((name) => [name, PROVIDERS[name]])),
    email: { sender, resetPasswordUrl: settings.resetPasswordUrl, confirmationRedirect: settings.confirmationRedirect, ...templates },
    ...more,
  };
}

/**
 * An API over `fixture` under `settings`, with its own permissions file beside the fixture's
 * (`publicGrants`, the Public role's reads); `sync` for an app's fresh database.
 */
export async function serveAccounts(fixture: FreshFixture, settings: Settings, sender: MailSender, name: string, { publicGrants = FIXTURE_PUBLIC, sync = false } = {}): Promise<ServedApi> {
  const permissionsFile = join(fixture.root, `permissions-${name}.yaml`);
  writeFileSync(permissionsFile, permissionsFor(settings, publicGrants));
  return serveUsers(fixture, usersOption(settings, sender), { permissionsFile, sync });
}

/** A mail as the recordings hold it: the codes and the API's address left out. */
export function comparableMail(mail: ReceivedMail, serverUrl = SERVER_URL): RecordedMail {
  const tidy = (text: string | null) => (text === null ? null : text.replaceAll(serverUrl, '<server>').replace(/\b[0-9a-f]{40}(?:[0-9a-f]{88})?\b/g, '<token>'));
  return { to: mail.envelope.to, from: mail.from, replyTo: mail.replyTo, subject: tidy(mail.subject), text: tidy(mail.text), html: tidy(mail.html) };
}

/**
 * A redirect as the recordings hold it: the API's address, as it is or encoded, written
 * `<server>`, and without the OAuth `state` the plugin adds to a provider's address (U15).
 */
export function comparableRedirect(text: string): string {
  return text.replaceAll(SERVER_URL, '<server>').replaceAll(encodeURIComponent(SERVER_URL), '<server>').replace(/&state=[0-9a-f]+/, '');
}

/** The code of the link in `mail` (`marker`: `?code=` or `?confirmation=`). */
export function codeIn(mail: ReceivedMail, marker: string): string {
  const code = new URL(linkIn(mail, marker), 'http://link.invalid').searchParams.get(marker.slice(1, -1));
  if (!code) throw new Error(`the link in "${mail.subject}" carries no ${marker}`);
  return code;
}

/** `{{name}}` in a recorded path or body replaced by the code kept under that name. */
export function withCodes<T>(value: T, kept: ReadonlyMap<string, string>): T {
  if (typeof value === 'string') {
    return value.replace(/\{\{([^}]+)\}\}/g, (_, name: string) => {
      const code = kept.get(name);
      if (code === undefined) throw new Error(`no code kept as "${name}" (did the case that mails it fail?)`);
      return code;
    }) as T;
  }
  if (Array.isArray(value)) return value.map((item: unknown) => withCodes(item, kept)) as T;
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, withCodes(item, kept)])) as T;
  return value;
}
