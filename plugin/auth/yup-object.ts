/**
 * The bodies of the users-permissions routes, checked as Strapi checks them: a strict yup object
 * schema of string fields validated with every problem at once, worded and ordered as yup 0.32
 * words and orders them. Its order is odd but stable: fields are validated in the reverse of their
 * declaration, then the problems are sorted by the first declared field whose name is contained in
 * the problem's path (`passwordConfirmation` sorts with `password`), the object's own last.
 */
import { DataValidationError, type DataProblem } from '../errors.js';
import { isPlainObject } from '../write/parse-data.js';
import { EMAIL } from '../write/scalar-schema.js';

/** A test of a string field, run in the order the schema lists them, as yup runs them. */
export type StringTest =
  | { readonly kind: 'required' }
  | { readonly kind: 'email' }
  | { readonly kind: 'min'; readonly length: number }
  /** `.oneOf([ref(field)], message)`. */
  | { readonly kind: 'sameAs'; readonly field: string; readonly message: string };

/** `yup.string()` and its tests. */
export interface StringField {
  readonly name: string;
  readonly tests: readonly StringTest[];
}

/** A field of another kind: its own problems (absent too), a type error alone when its value is of no kind it takes. */
export interface CustomField {
  readonly name: string;
  readonly check: (value: unknown) => DataProblem[];
}

export interface ObjectSchema {
  readonly fields: readonly (StringField | CustomField)[];
  /** `.noUnknown()`: a key not declared is a problem of the object itself. */
  readonly noUnknown?: boolean;
}

/** yup's `printValue`: how a value that is not a string is shown in the message. */
export function printValue(value: unknown): string {
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
export function typeProblem(path: string[], type: string, value: unknown): DataProblem {
  return { path, message: `${path.length ? path.join('.') : 'this'} must be a \`${type}\` type, but the final value was: \`${printValue(value)}\`.` };
}

function failed(test: StringTest, name: string, value: string | undefined, body: Record<string, unknown>): string | null {
  switch (test.kind) {
    case 'required':
      return value === undefined || value === '' ? `${name} is a required field` : null;
    case 'email':
      return value !== undefined && value !== '' && !EMAIL.test(value) ? `${name} must be a valid email` : null;
    case 'min':
      return value !== undefined && value.length < test.length ? `${name} must be at least ${test.length} characters` : null;
    case 'sameAs':
      return value !== undefined && value !== body[test.field] ? test.message : null;
  }
}

/** A field's problems: a type error alone, else every test that fails, in the order yup runs them. */
function fieldProblems(field: StringField | CustomField, body: Record<string, unknown>): DataProblem[] {
  const value = body[field.name];
  if ('check' in field) return field.check(value);
  const path = [field.name];
  if (value !== undefined && typeof value !== 'string') return [typeProblem(path, 'string', value)];
  return field.tests.map((test) => failed(test, field.name, value, body)).filter((message): message is string => message !== null).map((message) => ({ path, message }));
}

function rankOf(schema: ObjectSchema, problem: DataProblem): number {
  const path = problem.path.join('.');
  const index = schema.fields.findIndex((field) => path.includes(field.name));
  return index < 0 || path === '' ? Infinity : index;
}

/**
 * The body's fields, checked; a DataValidationError with every problem otherwise. A body that is
 * not an object is one problem; an absent body is an empty object, as Strapi reads one.
 */
export function checkObject(body: unknown, schema: ObjectSchema): Record<string, string> {
  if (body !== undefined && !isPlainObject(body)) throw new DataValidationError([typeProblem([], 'object', body)]);
  const given = body ?? {};
  const problems = [...schema.fields].reverse().flatMap((field) => fieldProblems(field, given));
  if (schema.noUnknown) {
    const unknown = Object.keys(given).filter((key) => !schema.fields.some((field) => field.name === key));
    if (unknown.length) problems.push({ path: [], message: `this field has unspecified keys: ${unknown.join(', ')}` });
  }
  if (problems.length) throw new DataValidationError(problems.map((problem, index) => ({ problem, index })).sort((a, b) => rankOf(schema, a.problem) - rankOf(schema, b.problem) || a.index - b.index).map(({ problem }) => problem));
  const values: Record<string, string> = {};
  for (const field of schema.fields) if (typeof given[field.name] === 'string') values[field.name] = given[field.name] as string;
  return values;
}
