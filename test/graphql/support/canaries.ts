/**
 * Distinctive values planted in a SQLite copy of the small fixture for the GraphQL fuzz, each
 * with the roles that may not see it (under PERMISSIONS below): every private and password
 * column; a text attribute of each type some role may not `find`; the rows a row rule hides; the
 * attributes a field rule hides; the titles of drafts.
 */
import Database from 'better-sqlite3';
import type { Model, Registry, ScalarAttribute } from '../../../plugin/schema/registry.js';

export const ROLES = ['public', 'member', 'editor'] as const;
export type Role = (typeof ROLES)[number];

/** `member` has row and field rules; `public` reads fewer types; `editor` reads all, drafts too. */
export const PERMISSIONS = `
roles:
  public:
    article: [find, findOne]
    category: [find, findOne]
    file: [find, findOne]
    user: [find, findOne]
  member:
    article:
      find: { where: { featured: true }, fields: { except: [content] } }
      findOne: { where: { featured: true }, fields: { except: [content] } }
    category:
      find: { fields: { except: [description] } }
      findOne: { fields: { except: [description] } }
    restaurant:
      find: { where: { priceRange: cheap } }
      findOne: { where: { priceRange: cheap } }
    file: [find, findOne]
  editor:
    article: [find, findOne, preview]
    category: [find, findOne]
    restaurant: [find, findOne]
    file: [find, findOne]
    user: [find, findOne]
    role: [find, findOne]
`;

const TEXT_TYPES = new Set(['string', 'text', 'richtext', 'email', 'password', 'uid', 'enumeration']);
/** The types each role may not `find`, under PERMISSIONS. */
const UNREADABLE: Readonly<Record<Role, readonly string[]>> = {
  public: ['api::restaurant.restaurant', 'plugin::users-permissions.role'],
  member: ['plugin::users-permissions.user', 'plugin::users-permissions.role'],
  editor: [],
};

export const DRAFT_CANARY = 'canary-draft';
const ROW_CANARIES: Readonly<Record<string, string>> = { 'api::article.article': 'canary-row-article', 'api::restaurant.restaurant': 'canary-row-restaurant' };
const FIELD_CANARIES = { article: 'canary-field-article-content', category: 'canary-field-category-description' };

export interface Planted {
  readonly hidden: readonly string[];
  /** The canary of each type some role may not find, by uid. */
  readonly types: ReadonlyMap<string, string>;
}

const textScalars = (model: Model): ScalarAttribute[] =>
  [...model.attributes.values()].filter((attribute): attribute is ScalarAttribute => attribute.kind === 'scalar' && TEXT_TYPES.has(attribute.type));

const column = (model: Model, name: string) => (model.attributes.get(name) as ScalarAttribute).column;

/** Writes the canaries into the SQLite file. */
export function plantCanaries(file: string, registry: Registry): Planted {
  const database = new Database(file);
  const hidden: string[] = [];
  const types = new Map<string, string>();
  const set = (model: Model, attribute: string, value: string, where = '1 = 1') =>
    database.prepare(`UPDATE "${model.tableName}" SET "${column(model, attribute)}" = ? WHERE ${where}`).run(value);
  try {
    for (const model of registry.models.values()) {
      for (const attribute of textScalars(model).filter((scalar) => scalar.hidden)) {
        const value = `canary-hidden-${model.tableName}-${attribute.column}`;
        set(model, attribute.name, value);
        hidden.push(value);
      }
      const visible = textScalars(model).find((scalar) => !scalar.hidden && scalar.type !== 'uid' && scalar.type !== 'enumeration');
      if (visible && Object.values(UNREADABLE).some((uids) => uids.includes(model.uid))) {
        const value = `canary-type-${model.uid.replace(/\W+/g, '-')}`;
        set(model, visible.name, value);
        types.set(model.uid, value);
      }
    }
    const article = registry.routes.get('articles')!;
    const restaurant = registry.routes.get('restaurants')!;
    const category = registry.routes.get('categories')!;
    set(article, 'description', ROW_CANARIES[article.uid], `"${column(article, 'featured')}" IS NOT 1`);
    set(restaurant, 'description', ROW_CANARIES[restaurant.uid], `"${column(restaurant, 'priceRange')}" IS NOT 'cheap'`);
    set(article, 'content', FIELD_CANARIES.article);
    set(category, 'description', FIELD_CANARIES.category);
    set(article, 'title', DRAFT_CANARY, 'published_at IS NULL');
  } finally {
    database.close();
  }
  return { hidden, types };
}

/** The canaries an answer to `role` must not hold, for a request whose text is `request`. */
export function forbiddenFor(role: Role, request: string, planted: Planted): string[] {
  const forbidden = [...planted.hidden];
  for (const uid of UNREADABLE[role]) {
    for (const canary of [planted.types.get(uid), ROW_CANARIES[uid]]) if (canary) forbidden.push(canary);
  }
  if (role === 'member') forbidden.push(...Object.values(ROW_CANARIES), ...Object.values(FIELD_CANARIES));
  if (role !== 'editor' || !request.includes('PREVIEW')) forbidden.push(DRAFT_CANARY);
  return forbidden;
}

/** Every canary a role may see somewhere, to prove they were planted where they are read. */
export function visibleTo(role: Role, planted: Planted): string[] {
  const everything = [...planted.types.values(), ...Object.values(ROW_CANARIES), ...Object.values(FIELD_CANARIES), DRAFT_CANARY];
  const forbidden = new Set(forbiddenFor(role, 'PREVIEW', planted));
  return everything.filter((canary) => !forbidden.has(canary));
}
