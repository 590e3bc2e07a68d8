/**
 * The bodies of `POST /auth/local` and `/auth/local/register`, checked as Strapi checks them (yup,
 * strict, every problem at once) and worded as it words them: `identifier is a required field`,
 * `email must be a valid email`, `2 errors occurred`.
 */
import { DataValidationError, type DataProblem } from '../errors.js';
import { isPlainObject } from '../write/parse-data.js';
import { EMAIL } from '../write/scalar-schema.js';

export interface LoginBody {
  readonly identifier: string;
  readonly password: string;
}

export interface RegisterBody {
  readonly email: string;
  readonly username: string;
  readonly password: string;
}

/** yup's `printValue`: how a value that is not a string is shown in the message. */
function printValue(value: unknown): string {
  const simple = (item: unknown): string | null => {
    if (item === null) return 'null';
    if (typeof item === 'boolean') return String(item);
    if (typeof item === 'number') return Object.is(item, -0) ? '-0' : String(item);
    if (typeof item === 'string') return `"${item}"`;
    return null;
  };
  return simple(value) ?? JSON.stringify(value, function (this: Record<string, unknown>, key, item) {
    return simple(this[key]) ?? item;
  }, 2);
}

/** yup's type error, as a strict schema words it. */
function typeProblem(path: string[], type: string, value: unknown): DataProblem {
  return { path, message: `${path.length ? path.join('.') : 'this'} must be a \`${type}\` type, but the final value was: \`${printValue(value)}\`.` };
}

/** `yup.string().required()`, strict: a missing or empty value is required; null or another type is a type error. */
function requiredString(body: Record<string, unknown>, name: string, problems: DataProblem[]): string {
  const value = body[name];
  if (value === undefined || value === '') {
    problems.push({ path: [name], message: `${name} is a required field` });
    return '';
  }
  if (typeof value !== 'string') {
    problems.push(typeProblem([name], 'string', value));
    return '';
  }
  return value;
}

function objectOf(body: unknown): Record<string, unknown> {
  return isPlainObject(body) ? body : {};
}

export function parseLoginBody(body: unknown): LoginBody {
  if (body !== undefined && !isPlainObject(body)) throw new DataValidationError([typeProblem([], 'object', body)]);
  const given = objectOf(body);
  const problems: DataProblem[] = [];
  const identifier = requiredString(given, 'identifier', problems);
  const password = requiredString(given, 'password', problems);
  if (problems.length) throw new DataValidationError(problems);
  return { identifier, password };
}

/** The register body's own checks; the user type's (lengths, uniqueness) come after, as in Strapi. */
export function parseRegisterBody(body: Record<string, unknown>): RegisterBody {
  const problems: DataProblem[] = [];
  const email = requiredString(body, 'email', problems);
  if (email !== '' && !EMAIL.test(email)) problems.push({ path: ['email'], message: 'email must be a valid email' });
  const username = requiredString(body, 'username', problems);
  const password = requiredString(body, 'password', problems);
  if (problems.length) throw new DataValidationError(problems);
  return { email, username, password };
}

export { objectOf as bodyObject };
