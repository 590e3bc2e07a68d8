/**
 * The recorded cases the plugin answers otherwise, by decision, each with the row of
 * docs/users.md that states it: keyed `<group>: <case name>`, the answer the replay expects instead.
 */
import type { RecordedCase } from './support.js';

export interface Deviation {
  readonly why: string;
  readonly answer: Partial<Pick<RecordedCase, 'status' | 'response' | 'responseText' | 'mails'>>;
}

const sent = (email: string) => ({ status: 200, response: { email, sent: true } });

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
  'rate-limit: send-email-confirmation 11': { why: 'U10: send-email-confirmation is limited as forgot-password is (Strapi does not limit it)', answer: { status: 429, response: TOO_MANY } },
};
