/**
 * The users routes of Strapi's users-permissions that write or count: `GET /users/count`,
 * `POST /users`, `PUT` and `DELETE /users/:id`, with its checks, words and flat answers. The
 * writes go through the write pipeline (createEntry, updateEntry, deleteEntry), so the role's row
 * rules on `user` apply to them as to any write: `set`, `fields`, and `where` on the rows an
 * update or a delete reaches. Plain data in, plain data out: the routes are user-routes.ts.
 */
import type { Grants } from '../access/permissions.js';
import { UNCONDITIONAL } from '../access/action-rules.js';
import { ApplicationError, DataValidationError, NotFoundError } from '../errors.js';
import { read, type ReadRequest, type ReadResult, type RequestQuery } from '../read.js';
import { parseQuery } from '../query/parse.js';
import { flatAnswer } from '../format/flat-entry.js';
import type { Attribute, Model } from '../schema/registry.js';
import { ROLE_UID } from '../schema/users-permissions.js';
import { createEntry, deleteEntry, updateEntry, type WriteEngine, type WriteRequest } from '../write/write.js';
import qs from 'qs';
import type { UserStore } from './user-store.js';
import { checkCreateUserBody, checkUpdateUserBody } from './user-bodies.js';
import { refuseNul } from './user-writes.js';

/** Who asks, under which rules: a write request without its model, id, query and body. */
export type UsersRequest = Omit<WriteRequest, 'model' | 'id' | 'body' | 'query' | 'queryKey'>;

/** Keys Strapi's entity service ignores in a body: those it maintains itself. */
const MAINTAINED = new Set(['id', 'createdAt', 'updatedAt', 'createdBy', 'updatedBy']);

function isWritable(attribute: Attribute | undefined, name: string): boolean {
  if (!attribute || MAINTAINED.has(name) || attribute.kind === 'internal' || attribute.kind === 'morph') return false;
  return !(attribute.kind === 'scalar' && attribute.implicit);
}

/** The body's attributes of the user type; other keys are ignored, as Strapi's entity service ignores them. */
function userData(model: Model, body: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(body).filter(([name]) => isWritable(model.attributes.get(name), name)));
}

/** A user's role is given by id, as Strapi takes it, whether or not the caller may read roles. */
function withRoles(grants: Grants): Grants {
  return {
    role: grants.role,
    can: (uid, action) => (uid === ROLE_UID && action === 'find') || grants.can(uid, action),
    rule: (uid, action) => (uid === ROLE_UID && action === 'find' && !grants.can(uid, action) ? UNCONDITIONAL : grants.rule(uid, action)),
  };
}

/** `:id` as Strapi's lookup reads it: anything but a whole number is no user. */
function userId(text: string): number | null {
  return /^\d{1,15}$/.test(text) ? Number(text) : null;
}

/** The answer shows the role to a role that may read roles, as Strapi's sanitizer does. */
const WITH_ROLE: RequestQuery = { query: { populate: 'role' }, queryKey: 'populate=role' };

/** `value` without its null members, at every depth (what a query string written with qs's skipNulls holds). */
function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.filter((item) => item !== null).map(withoutNulls);
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).flatMap(([key, item]) => (item === null || item === undefined ? [] : [[key, withoutNulls(item)]])));
}

export class UserAdmin {
  constructor(
    private readonly engine: WriteEngine,
    private readonly store: UserStore,
  ) {}

  private get model(): Model {
    return this.store.userModel;
  }

  /** `GET /users/count`: the users the role's `find` reaches, under the query's `filters` (and `_q`). */
  async count(request: UsersRequest, query: Readonly<Record<string, unknown>>): Promise<number> {
    const counted = withoutNulls({ filters: query.filters, _q: query._q, fields: ['id'], pagination: { pageSize: '1', withCount: 'true' } }) as Record<string, unknown>;
    // Its query-string form keys the plan: the same text as a list request would send for the same query.
    const queryKey = qs.stringify(counted, { encodeValuesOnly: true });
    const model = this.model;
    const tree = () => parseQuery(this.engine.registry, { model, action: 'find', id: null, query: counted }, this.engine.limits);
    const readRequest: ReadRequest = { ...request, model, action: 'find', id: null, queryKey, tree };
    const result = await read(this.engine, readRequest);
    try {
      return (JSON.parse(result.body.toString()) as { meta: { pagination: { total: number } } }).meta.pagination.total;
    } finally {
      result.release?.();
    }
  }

  /** `POST /users`: a local user with a role; its email lowercased and not taken. */
  async create(body: unknown, request: UsersRequest, grants: Grants): Promise<Record<string, unknown>> {
    const given = checkCreateUserBody(body);
    refuseNul(given);
    if (await this.store.findByEmail(given.email)) throw new ApplicationError('Email already taken');
    const data = { ...userData(this.model, given), email: given.email.toLowerCase(), provider: 'local' };
    try {
      const answer = await createEntry(this.engine, { ...request, model: this.model, id: null, ...WITH_ROLE, body: { data } }, withRoles(grants));
      return this.flat(answer);
    } catch (error) {
      // Strapi answers the user type's problems of a creation as one ApplicationError, in their words.
      if (error instanceof DataValidationError) throw new ApplicationError(error.message);
      throw error;
    }
  }

  /** `PUT /users/:id`: the attributes given change; a username or email another user holds is refused. */
  async update(idText: string, body: unknown, request: UsersRequest, grants: Grants): Promise<Record<string, unknown>> {
    const id = userId(idText);
    if (id === null || !(await this.store.findById(id))) throw new NotFoundError('User not found');
    const given = checkUpdateUserBody(body);
    refuseNul(given);
    const data = userData(this.model, given);
    if (typeof given.username === 'string') {
      const holder = await this.store.findByUsername(given.username);
      if (holder && holder.id !== id) throw new ApplicationError('Username already taken');
    }
    if (typeof given.email === 'string') {
      const holder = await this.store.findByEmail(given.email);
      if (holder && holder.id !== id) throw new ApplicationError('Email already taken');
      data.email = given.email.toLowerCase();
    }
    const answer = await updateEntry(this.engine, { ...request, model: this.model, id, ...WITH_ROLE, body: { data } }, withRoles(grants));
    return this.flat(answer);
  }

  /** `DELETE /users/:id`: the user as it was; null (Strapi's empty 204) when there is none the role may delete. */
  async delete(idText: string, request: UsersRequest): Promise<Record<string, unknown> | null> {
    const id = userId(idText);
    if (id === null || !(await this.store.findById(id))) return null;
    try {
      const answer = await deleteEntry(this.engine, { ...request, model: this.model, id, ...WITH_ROLE, body: undefined });
      return this.flat(answer);
    } catch (error) {
      if (error instanceof NotFoundError) return null;
      throw error;
    }
  }

  private flat(answer: ReadResult): Record<string, unknown> {
    try {
      const flat = flatAnswer(answer.body);
      if (!flat) throw new Error('the written user was not read back');
      return flat;
    } finally {
      answer.release?.();
    }
  }
}
