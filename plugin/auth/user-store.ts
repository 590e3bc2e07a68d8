/**
 * End users in the users-permissions tables (`up_users`, its role through `up_users_role_links`,
 * `up_roles`): found by login identifier, id, email or code in one statement each, with the
 * role's type; and the codes of the account flows written and spent, one statement each. The
 * stored values come back as the models hold them (storage/model-values.ts); only the public
 * fields ever leave this file with the user, never the password or the codes.
 */
import type { Knex } from 'knex';
import type { Model, RelationAttribute, Registry, ScalarAttribute } from '../schema/registry.js';
import { USER_UID } from '../schema/users-permissions.js';
import { clientOf, type DatabaseClient } from '../storage/database.js';
import { columnTypeOf } from '../storage/layout.js';
import { formatColumnValue, parseColumnValue } from '../storage/model-values.js';

/** A user as found: what login and token checks read, and the fields an answer may show. */
export interface StoredUser {
  readonly id: number;
  /** The bcrypt hash, or null (a user of another provider). */
  readonly passwordHash: string | null;
  /** `local`, or the third-party provider the user logs in with. */
  readonly provider: string | null;
  readonly confirmed: boolean;
  readonly blocked: boolean;
  /** `up_roles.type`, null for a user without a role. */
  readonly roleType: string | null;
  readonly role: { readonly id: number; readonly name: string | null; readonly type: string | null } | null;
  /** `id` and the attributes an answer shows (not private, not a password), in the schema's order. */
  readonly publicFields: Readonly<Record<string, unknown>>;
}

/** A row of `up_roles`, with how many users have the role. */
export interface StoredRole {
  readonly id: number;
  readonly name: string | null;
  readonly description: string | null;
  readonly type: string | null;
  readonly createdAt: Date | null;
  readonly updatedAt: Date | null;
  readonly users: number;
}

/** The attributes where Strapi keeps the codes of the account flows. */
export type CodeKind = 'resetPasswordToken' | 'confirmationToken';

const ROLE_ID = '__role_id';
const ROLE_NAME = '__role_name';
const ROLE_TYPE = '__role_type';

/** The user type of the schema and how to reach its role, checked once at start. */
export class UserStore {
  private readonly model: Model;
  private readonly role: RelationAttribute;
  private readonly roleTable: string;
  private readonly client: DatabaseClient;

  constructor(
    private readonly knex: Knex,
    registry: Registry,
  ) {
    const model = registry.models.get(USER_UID);
    const role = model?.attributes.get('role');
    if (!model || role?.kind !== 'relation' || !role.linkTable) {
      const unnamed = registry.contentTypes.find((other) => other.tableName === 'up_users' && other.uid !== USER_UID);
      if (unnamed) throw new Error(`users needs the ${USER_UID} content type: ${unnamed.source?.file ?? unnamed.uid} declares "${unnamed.uid}"; add "uid: ${USER_UID}" at its top level`);
      throw new Error(`users needs the ${USER_UID} content type with its role relation: content-types/user.yaml and content-types/role.yaml as \`content-api init --users\` writes them`);
    }
    for (const name of ['username', 'email', 'password', 'provider', 'confirmed', 'blocked']) {
      if (model.attributes.get(name)?.kind !== 'scalar') throw new Error(`users: the ${USER_UID} content type has no "${name}" attribute`);
    }
    this.model = model;
    this.role = role;
    this.roleTable = registry.models.get(role.target)!.tableName;
    this.client = clientOf(knex);
  }

  /** The attributes a new user may be given from a register body (scalars a caller may write). */
  get writableFields(): readonly ScalarAttribute[] {
    return [...this.model.attributes.values()].filter((attribute): attribute is ScalarAttribute => attribute.kind === 'scalar' && !attribute.hidden && !attribute.implicit);
  }

  get userModel(): Model {
    return this.model;
  }

  /**
   * The local user whose email is `identifier` lowercased or whose username is `identifier`, as
   * Strapi looks one up for a login (the first by id when both match different users).
   */
  async findByIdentifier(identifier: string): Promise<StoredUser | null> {
    const email = this.column('email');
    const username = this.column('username');
    return this.findOne((query) =>
      query.where(`u.${this.column('provider')}`, 'local').andWhere((either) => either.where(`u.${email}`, identifier.toLowerCase()).orWhere(`u.${username}`, identifier)),
    );
  }

  async findById(id: number): Promise<StoredUser | null> {
    return this.findOne((query) => query.where('u.id', id));
  }

  /** The user, of any provider, whose email is `email` lowercased (the first by id), as Strapi finds one for a mail. */
  async findByEmail(email: string): Promise<StoredUser | null> {
    return this.findOne((query) => query.where(`u.${this.column('email')}`, email.toLowerCase()));
  }

  /** The user, of any provider, whose username is `username` (the first by id). */
  async findByUsername(username: string): Promise<StoredUser | null> {
    return this.findOne((query) => query.where(`u.${this.column('username')}`, username));
  }

  /** Every user, of any provider, whose email is `email` (lowercased), by id: third-party login picks its provider's. */
  async findAllByEmail(email: string): Promise<StoredUser[]> {
    return this.findMany((query) => query.where(`u.${this.column('email')}`, email.toLowerCase()));
  }

  /** The user whose stored code (`resetPasswordToken` or `confirmationToken`) is `code`. */
  async findByCode(kind: CodeKind, code: string): Promise<StoredUser | null> {
    return this.findOne((query) => query.where(`u.${this.codeColumn(kind)}`, code));
  }

  /** Stores a new code for the user, as Strapi's edit does (its `updatedAt` too). */
  async storeCode(kind: CodeKind, id: number, code: string, now: number): Promise<void> {
    await this.knex(this.model.tableName).where({ id }).update({ [this.codeColumn(kind)]: code, ...this.updatedAt(now) });
  }

  /**
   * Spends the user's code when it is still `code`, in `knex` (the caller's transaction), with
   * `more` attributes' columns; answers whether it was: of two requests with one code, one wins.
   */
  async spendCode(knex: Knex, kind: CodeKind, id: number, code: string, now: number, more: { readonly confirmed?: true } = {}): Promise<boolean> {
    const confirmed = more.confirmed ? { [this.column('confirmed')]: formatColumnValue(this.client, 'boolean', true) } : {};
    const changed = await knex(this.model.tableName).where({ id, [this.codeColumn(kind)]: code }).update({ [this.codeColumn(kind)]: null, ...confirmed, ...this.updatedAt(now) });
    return Number(changed) === 1;
  }

  /** Throws at start when the user type lacks the code attributes the account flows store. */
  checkCodeAttributes(): void {
    for (const kind of ['resetPasswordToken', 'confirmationToken'] as const) this.codeColumn(kind);
  }

  /** How many users, of any provider, have one of `values` as email or as username (register's conflict check). */
  async countConflicts(values: readonly string[]): Promise<number> {
    const query = this.knex(this.model.tableName)
      .count({ count: '*' })
      .where((either) => either.whereIn(this.column('email'), values).orWhereIn(this.column('username'), values));
    const [row] = (await query) as { count: number | string | bigint }[];
    return Number(row.count);
  }

  /**
   * The roles, as Strapi's role service lists them: by name, each with its number of users
   * (`nb_users`), in one statement; `id` alone when given.
   */
  async roles(id?: number): Promise<StoredRole[]> {
    const link = this.role.linkTable!;
    const users = this.knex({ l: link.name }).count('*').where(`l.${link.inverseJoinColumn}`, this.knex.ref('r.id'));
    const query = this.knex({ r: this.roleTable }).select('r.id', 'r.name', 'r.description', 'r.type', 'r.created_at', 'r.updated_at', { nb_users: users }).orderBy('r.name').orderBy('r.id');
    if (id !== undefined) query.where('r.id', id);
    const rows = (await query) as Record<string, unknown>[];
    const date = (value: unknown) => (parseColumnValue(this.client, 'datetime', value) as Date | null | undefined) ?? null;
    const text = (value: unknown) => (typeof value === 'string' ? value : null);
    return rows.map((row) => ({ id: Number(row.id), name: text(row.name), description: text(row.description), type: text(row.type), createdAt: date(row.created_at), updatedAt: date(row.updated_at), users: Number(row.nb_users) }));
  }

  /** The id of the role of `type`, or null. */
  async roleIdOfType(type: string): Promise<number | null> {
    const row = (await this.knex(this.roleTable).select('id').where('type', type).orderBy('id').first()) as { id: number | bigint } | undefined;
    return row ? Number(row.id) : null;
  }

  private codeColumn(kind: CodeKind): string {
    const attribute = this.model.attributes.get(kind);
    if (attribute?.kind !== 'scalar') throw new Error(`users.email: the ${USER_UID} content type has no "${kind}" attribute, where the account flows keep their codes`);
    return attribute.column;
  }

  private updatedAt(now: number): Record<string, unknown> {
    return this.model.attributes.has('updatedAt') ? { updated_at: formatColumnValue(this.client, 'datetime', new Date(now)) } : {};
  }

  private column(name: string): string {
    return (this.model.attributes.get(name) as ScalarAttribute).column;
  }

  /** Users with their role (the first by id), in id order. */
  private usersQuery(): { query: Knex.QueryBuilder; scalars: ScalarAttribute[] } {
    const link = this.role.linkTable!;
    const scalars = [...this.model.attributes.values()].filter((attribute): attribute is ScalarAttribute => attribute.kind === 'scalar');
    const query = this.knex({ u: this.model.tableName })
      .select('u.id', ...scalars.map((attribute) => `u.${attribute.column}`))
      .select({ [ROLE_ID]: 'r.id', [ROLE_NAME]: 'r.name', [ROLE_TYPE]: 'r.type' })
      .leftJoin({ l: link.name }, `l.${link.joinColumn}`, 'u.id')
      .leftJoin({ r: this.roleTable }, 'r.id', `l.${link.inverseJoinColumn}`)
      .orderBy('u.id')
      .orderBy('r.id');
    return { query, scalars };
  }

  private async findOne(where: (query: Knex.QueryBuilder) => Knex.QueryBuilder): Promise<StoredUser | null> {
    const { query, scalars } = this.usersQuery();
    const row = (await where(query.first())) as Record<string, unknown> | undefined;
    return row ? this.userOf(row, scalars) : null;
  }

  /** At most 100 users, each once: a user is found by an address few share. */
  private async findMany(where: (query: Knex.QueryBuilder) => Knex.QueryBuilder): Promise<StoredUser[]> {
    const { query, scalars } = this.usersQuery();
    const rows = (await where(query.limit(100))) as Record<string, unknown>[];
    const seen = new Set<unknown>();
    return rows.filter((row) => !seen.has(row.id) && seen.add(row.id)).map((row) => this.userOf(row, scalars));
  }

  private userOf(row: Record<string, unknown>, scalars: readonly ScalarAttribute[]): StoredUser {
    const value = (attribute: ScalarAttribute) => parseColumnValue(this.client, columnTypeOf(attribute.type), row[attribute.column]);
    const id = Number(row.id);
    const publicFields: Record<string, unknown> = { id };
    for (const attribute of this.model.defaultFields) publicFields[attribute.name] = value(attribute) ?? null;
    const byName = new Map(scalars.map((attribute) => [attribute.name, attribute]));
    const password = value(byName.get('password')!);
    const roleType = typeof row[ROLE_TYPE] === 'string' ? (row[ROLE_TYPE] as string) : null;
    return {
      id,
      passwordHash: typeof password === 'string' && password !== '' ? password : null,
      provider: (value(byName.get('provider')!) as string | null | undefined) ?? null,
      confirmed: value(byName.get('confirmed')!) === true,
      blocked: value(byName.get('blocked')!) === true,
      roleType,
      role: row[ROLE_ID] === null || row[ROLE_ID] === undefined ? null : { id: Number(row[ROLE_ID]), name: (row[ROLE_NAME] as string | null) ?? null, type: roleType },
      publicFields: Object.freeze(publicFields),
    };
  }
}
