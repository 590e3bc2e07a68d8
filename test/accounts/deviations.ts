/**
 * The recorded cases the plugin answers otherwise, by decision, each with the row of
 * docs/users.md that states it: keyed `<group>: <case name>`, the answer the replay expects instead.
 */
import { ROLES_IN_FILE } from '../../plugin/auth/roles-view.js';
import type { RecordedCase } from './support.js';

type Answer = Partial<Pick<RecordedCase, 'status' | 'response' | 'responseText' | 'mails'>>;

export interface Deviation {
  readonly why: string;
  /** What the plugin answers: given, or made from the recorded case. */
  readonly answer: Answer | ((recorded: RecordedCase) => Answer);
}

const sent = (email: string) => ({ status: 200, response: { email, sent: true } });

const IN_FILE = {
  status: 405,
  response: { data: null, error: { status: 405, name: 'MethodNotAllowedError', message: ROLES_IN_FILE, details: {} } },
};

/**
 * The public role's permissions as recorded, but for the count of users, which `find` on users
 * gives (U13), and third-party login, enabled where a provider is configured (U7).
 */
function publicPermissions(recorded: RecordedCase): Answer {
  const answer = structuredClone(recorded.response) as { role: { permissions: Record<string, { controllers: Record<string, Record<string, { enabled: boolean }>> }> } };
  const { auth, user } = answer.role.permissions['plugin::users-permissions'].controllers;
  auth.connect.enabled = recorded.settings.providers.length > 0;
  user.count.enabled = user.find.enabled;
  return { response: answer };
}

const TOO_MANY = { data: null, error: { status: 429, name: 'RateLimitError', message: 'Too many requests, please try again later.', details: {} } };

const NOT_ALLOWED = { data: null, error: { status: 405, name: 'MethodNotAllowedError', message: 'Method Not Allowed', details: {} } };

export const DEVIATIONS: Readonly<Record<string, Deviation>> = {
  'locales: POST is not allowed': { why: 'W11 of docs/deviations.md: a 405 in the JSON error envelope (Strapi: plain text)', answer: { status: 405, response: NOT_ALLOWED, responseText: undefined } },
  'email-confirmation: sends the confirmation mail, the address in any case': {
    why: 'U9: the address is answered as given, whether it names an account or not (Strapi answers the stored one when it does)',
    answer: sent('USER04@Example.com'),
  },
  'email-confirmation: a confirmed user': { why: 'U9: the same answer for every address (Strapi: "Already confirmed")', answer: sent('user01@example.com') },
  'email-confirmation: a blocked user': { why: 'U9: the same answer for every address (Strapi: "User blocked")', answer: sent('user08@example.com') },
  'email-confirmation: now confirmed': { why: 'U9: the same answer for every address (Strapi: "Already confirmed")', answer: sent('user04@example.com') },
  'users: count, a role without it': { why: 'U13: counting users needs find on user (Strapi has a count action of its own, which the fixture\'s Public role lacks)', answer: { status: 200, response: 10 } },
  'roles: the public role with its permissions': { why: 'U7: connect is enabled where a provider is configured; U13: find on users counts them', answer: publicPermissions },
  'roles: create a role, a role without it': { why: 'deviations.md: roles are written in permissions.yaml, never through the API', answer: IN_FILE },
  'roles: create a role': { why: 'deviations.md: roles are written in permissions.yaml', answer: IN_FILE },
  'roles: create a role, an empty body': { why: 'deviations.md: roles are written in permissions.yaml', answer: IN_FILE },
  'roles: update a role': { why: 'deviations.md: roles are written in permissions.yaml', answer: IN_FILE },
  'roles: delete the public role': { why: 'deviations.md: roles are written in permissions.yaml', answer: IN_FILE },
  'roles: delete a role': { why: 'deviations.md: roles are written in permissions.yaml', answer: IN_FILE },
  'rate-limit: send-email-confirmation 11': { why: 'U10: send-email-confirmation is limited as forgot-password is (Strapi does not limit it)', answer: { status: 429, response: TOO_MANY } },
};

/** The user as `/users/me` answers it without a populate: what the recording populated (a media or relation, null or an object) left out. */
function unpopulated(recorded: RecordedCase): Answer {
  const user = recorded.response as Record<string, unknown>;
  return { response: Object.fromEntries(Object.entries(user).filter(([key, value]) => STOCK_USER_KEYS.has(key) || (value !== null && typeof value !== 'object'))) };
}
const STOCK_USER_KEYS = new Set(['id', 'username', 'email', 'provider', 'confirmed', 'blocked', 'createdAt', 'updatedAt']);

/**
 * The locales as served from the `locales` option (an app's fresh database has no `i18n_locale`
 * table): named from their codes, with no dates, since nothing recorded when they were made.
 */
function undated(recorded: RecordedCase): Answer {
  return { response: (recorded.response as Record<string, unknown>[]).map((locale) => ({ ...locale, createdAt: null, updatedAt: null })) };
}

/** What differs on the apps of test/accounts/apps only (an app's fresh database), keyed as DEVIATIONS. */
export const APP_DEVIATIONS: Readonly<Record<string, Deviation>> = {
  'locales: the public role lists the locales': { why: 'docs/permissions.md, the locales: without an i18n_locale table a locale is named from its code, with no dates', answer: undated },
  'register: me, everything populated': { why: 'U5: /users/me ignores its query string and never populates', answer: unpopulated },
};
