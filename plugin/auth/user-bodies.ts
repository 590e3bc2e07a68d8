/**
 * The bodies of `POST /users` and `PUT /users/:id`, checked as Strapi's users-permissions checks
 * them (its createUserBody and updateUserBody yup schemas): flat, not in `{ data }`; `role` an id,
 * or `{ connect: [{ id }] }` (and `disconnect` on an update).
 */
import type { DataProblem } from '../errors.js';
import { isPlainObject } from '../write/parse-data.js';
import { checkObject, typeProblem, type CustomField, type ObjectSchema, type StringField } from './yup-object.js';

const MIN_1 = { kind: 'min', length: 1 } as const;
const REQUIRED = { kind: 'required' } as const;

/** Strapi's `yup.strapiID()`: a string, or a whole number not below 0. */
function isStrapiId(value: unknown): boolean {
  return typeof value === 'string' || (typeof value === 'number' && Number.isInteger(value) && value >= 0);
}

/** `connect`/`disconnect`: a list of `{ id }`. */
function idListProblems(value: unknown, path: string[], required: boolean, minMessage: string | null): DataProblem[] {
  const label = path.join('.');
  if (value === undefined) return required ? [{ path, message: `${label} is a required field` }] : [];
  if (!Array.isArray(value)) return [typeProblem(path, 'array', value)];
  if (minMessage && value.length < 1) return [{ path, message: minMessage }];
  return value.flatMap((item, index): DataProblem[] => {
    const at = [...path.slice(0, -1), `${path[path.length - 1]}[${index}]`];
    if (!isPlainObject(item)) return [typeProblem(at, 'object', item)];
    const idPath = [...at, 'id'];
    if (item.id === undefined) return [{ path: idPath, message: `${idPath.join('.')} is a required field` }];
    return isStrapiId(item.id) ? [] : [typeProblem(idPath, 'strapiID', item.id)];
  });
}

/** `role`: an id, or an object of `connect` (at least one on a creation) and, on an update, `disconnect`. */
function roleField(creating: boolean): CustomField {
  return {
    name: 'role',
    check(value) {
      if (value === undefined) return creating ? [{ path: ['role'], message: 'role is a required field' }] : [];
      if (typeof value !== 'object') return isStrapiId(value) ? [] : [typeProblem(['role'], 'strapiID', value)];
      if (!isPlainObject(value)) return [typeProblem(['role'], 'object', value)];
      if (creating) return idListProblems(value.connect, ['role', 'connect'], true, 'Users must have a role');
      const problems = [...idListProblems(value.connect, ['role', 'connect'], true, null), ...idListProblems(value.disconnect, ['role', 'disconnect'], true, null)];
      const removesOnly = Array.isArray(value.connect) && value.connect.length === 0 && Array.isArray(value.disconnect) && value.disconnect.length > 0;
      return removesOnly ? [...problems, { path: ['role', 'disconnect'], message: 'Cannot remove role' }] : problems;
    },
  };
}

const field = (name: string, ...tests: StringField['tests']): StringField => ({ name, tests });

const CREATE_USER: ObjectSchema = {
  fields: [field('email', { kind: 'email' }, REQUIRED), field('username', MIN_1, REQUIRED), field('password', MIN_1, REQUIRED), roleField(true)],
};
const UPDATE_USER: ObjectSchema = {
  fields: [field('email', { kind: 'email' }, MIN_1), field('username', MIN_1), field('password', MIN_1), roleField(false)],
};

/** A creation's body, checked; its keys are all kept (the user type's checks come next). */
export function checkCreateUserBody(body: unknown): Record<string, unknown> & { readonly email: string; readonly username: string } {
  checkObject(body, CREATE_USER);
  return body as Record<string, unknown> & { readonly email: string; readonly username: string };
}

/** An update's body, checked. */
export function checkUpdateUserBody(body: unknown): Record<string, unknown> {
  checkObject(body, UPDATE_USER);
  return (body ?? {}) as Record<string, unknown>;
}
