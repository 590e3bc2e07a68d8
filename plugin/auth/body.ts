/**
 * The bodies of the users-permissions routes, checked as Strapi checks them (yup-object.ts) and
 * worded as it words them: `identifier is a required field`, `email must be a valid email`,
 * `this field has unspecified keys: admin`, `2 errors occurred`.
 */
import { isPlainObject } from '../write/parse-data.js';
import { checkObject, type ObjectSchema, type StringField } from './yup-object.js';

export interface LoginBody {
  readonly identifier: string;
  readonly password: string;
}

export interface RegisterBody {
  readonly email: string;
  readonly username: string;
  readonly password: string;
}

const REQUIRED = { kind: 'required' } as const;
const required = (name: string): StringField => ({ name, tests: [REQUIRED] });
const requiredEmail: StringField = { name: 'email', tests: [{ kind: 'email' }, REQUIRED] };

const LOGIN: ObjectSchema = { fields: [required('identifier'), required('password')] };
const REGISTER: ObjectSchema = { fields: [requiredEmail, required('username'), required('password')] };
const EMAIL_ONLY: ObjectSchema = { fields: [requiredEmail] };
const FORGOT_PASSWORD: ObjectSchema = { fields: [requiredEmail], noUnknown: true };
const RESET_PASSWORD: ObjectSchema = { fields: [required('password'), required('passwordConfirmation'), required('code')], noUnknown: true };
const CHANGE_PASSWORD: ObjectSchema = {
  fields: [required('password'), { name: 'passwordConfirmation', tests: [REQUIRED, { kind: 'sameAs', field: 'password', message: 'Passwords do not match' }] }, required('currentPassword')],
  noUnknown: true,
};
const CONFIRMATION: ObjectSchema = { fields: [required('confirmation')] };

export function parseLoginBody(body: unknown): LoginBody {
  const { identifier, password } = checkObject(body, LOGIN);
  return { identifier, password };
}

/** The register body's own checks; the user type's (lengths, uniqueness) come after, as in Strapi. */
export function parseRegisterBody(body: Record<string, unknown>): RegisterBody {
  const { email, username, password } = checkObject(body, REGISTER);
  return { email, username, password };
}

/** `POST /auth/forgot-password`: `{ email }`, nothing else. */
export function parseForgotPasswordBody(body: unknown): { readonly email: string } {
  return { email: checkObject(body, FORGOT_PASSWORD).email };
}

/** `POST /auth/send-email-confirmation`: `{ email }`; other keys are let through, as Strapi does. */
export function parseEmailBody(body: unknown): { readonly email: string } {
  return { email: checkObject(body, EMAIL_ONLY).email };
}

export interface ResetPasswordBody {
  readonly code: string;
  readonly password: string;
  readonly passwordConfirmation: string;
}

/** `POST /auth/reset-password`: whether the passwords match is the flow's check, after these. */
export function parseResetPasswordBody(body: unknown): ResetPasswordBody {
  const { code, password, passwordConfirmation } = checkObject(body, RESET_PASSWORD);
  return { code, password, passwordConfirmation };
}

export interface ChangePasswordBody {
  readonly currentPassword: string;
  readonly password: string;
}

/** `POST /auth/change-password`: the confirmation must equal the password (a problem of the body, as in Strapi). */
export function parseChangePasswordBody(body: unknown): ChangePasswordBody {
  const { currentPassword, password } = checkObject(body, CHANGE_PASSWORD);
  return { currentPassword, password };
}

/** `GET /auth/email-confirmation?confirmation=…`: the query string, parsed with brackets as Strapi parses it. */
export function parseConfirmationQuery(query: Record<string, unknown>): string {
  return checkObject(query, CONFIRMATION).confirmation;
}

function objectOf(body: unknown): Record<string, unknown> {
  return isPlainObject(body) ? body : {};
}

export { objectOf as bodyObject };
