/**
 * The models the GraphQL schema describes: the registry's content types (the media file type
 * included) and components, plus the content types Strapi always has and the registry may not
 * hold, since the package keeps no table for them: the i18n locale, the upload folder, the
 * users-permissions permission, and the user and role when the schema files do not declare them
 * (with the role's `permissions` relation). Strapi generates their types and queries on every
 * app; they are described here from Strapi 4.26.2's own schemas, marked `inRegistry: false`.
 */
import type { ComponentAttribute, DynamicZoneAttribute, InternalAttribute, MediaAttribute, Model, MorphAttribute, RelationAttribute, Registry, ScalarAttribute } from '../../schema/registry.js';
import { ROLE_UID, stockUsersPermissionsSchema, USER_UID } from '../../schema/users-permissions.js';

/** What the schema reads of an attribute: the registry's attributes have these keys and more. */
export type SchemaAttribute =
  | Pick<ScalarAttribute, 'kind' | 'name' | 'type' | 'hidden' | 'required' | 'enum' | 'implicit'>
  | Pick<RelationAttribute, 'kind' | 'name' | 'target' | 'toMany' | 'hidden' | 'required'>
  | Pick<MediaAttribute, 'kind' | 'name' | 'multiple' | 'hidden' | 'required'>
  | Pick<ComponentAttribute, 'kind' | 'name' | 'component' | 'repeatable' | 'hidden' | 'required'>
  | Pick<DynamicZoneAttribute, 'kind' | 'name' | 'components' | 'hidden' | 'required'>
  | Pick<InternalAttribute, 'kind' | 'name' | 'hidden'>
  | Pick<MorphAttribute, 'kind' | 'name' | 'hidden'>;

export interface SchemaModel extends Pick<Model, 'uid' | 'modelType' | 'kind' | 'singularName' | 'pluralName' | 'draftAndPublish' | 'localized'> {
  readonly attributes: ReadonlyMap<string, SchemaAttribute>;
  /** false for Strapi's own types the registry does not hold (no table in the package's layout). */
  readonly inRegistry: boolean;
}

export const LOCALE_UID = 'plugin::i18n.locale';
export const FOLDER_UID = 'plugin::upload.folder';
export const PERMISSION_UID = 'plugin::users-permissions.permission';

/** A Strapi schema.json's attributes, as far as the schema reads them. */
type StockAttributes = Record<string, { type: string; relation?: string; target?: string; required?: boolean; private?: boolean; enum?: string[] }>;

const STOCK_LOCALE: StockAttributes = { name: { type: 'string' }, code: { type: 'string' } };
const STOCK_FOLDER: StockAttributes = {
  name: { type: 'string', required: true },
  pathId: { type: 'integer', required: true },
  parent: { type: 'relation', relation: 'manyToOne', target: FOLDER_UID },
  children: { type: 'relation', relation: 'oneToMany', target: FOLDER_UID },
  files: { type: 'relation', relation: 'oneToMany', target: 'plugin::upload.file' },
  path: { type: 'string', required: true },
};
const STOCK_PERMISSION: StockAttributes = {
  action: { type: 'string', required: true },
  role: { type: 'relation', relation: 'manyToOne', target: ROLE_UID },
};

function stockAttribute(name: string, attribute: StockAttributes[string]): SchemaAttribute {
  const hidden = attribute.private === true || attribute.type === 'password';
  const required = attribute.required === true;
  if (attribute.type === 'relation') {
    return { kind: 'relation', name, target: attribute.target!, toMany: /Many$/.test(attribute.relation!), hidden, required };
  }
  return { kind: 'scalar', name, type: attribute.type as ScalarAttribute['type'], hidden, required, enum: attribute.enum ?? null, implicit: false };
}

const timestamp = (name: string): SchemaAttribute => ({ kind: 'scalar', name, type: 'datetime', hidden: false, required: false, enum: null, implicit: true });

function stockModel(uid: string, singularName: string, pluralName: string, attributes: StockAttributes): SchemaModel {
  const map = new Map<string, SchemaAttribute>(Object.entries(attributes).map(([name, attribute]) => [name, stockAttribute(name, attribute)]));
  map.set('createdAt', timestamp('createdAt'));
  map.set('updatedAt', timestamp('updatedAt'));
  return { uid, modelType: 'contentType', kind: 'collectionType', singularName, pluralName, draftAndPublish: false, localized: false, attributes: map, inRegistry: false };
}

function stockUsersPermissions(name: 'user' | 'role'): SchemaModel {
  const { attributes } = stockUsersPermissionsSchema(name) as { attributes: StockAttributes };
  return stockModel(name === 'user' ? USER_UID : ROLE_UID, name, `${name}s`, attributes);
}

const fromRegistry = (model: Model): SchemaModel => ({ ...model, inRegistry: true });

/** The registry's role, with Strapi's `permissions` relation when its schema file leaves it out. */
function withPermissions(role: SchemaModel): SchemaModel {
  if (role.attributes.has('permissions')) return role;
  const attributes = new Map(role.attributes);
  attributes.set('permissions', { kind: 'relation', name: 'permissions', target: PERMISSION_UID, toMany: true, hidden: false, required: false });
  return { ...role, attributes };
}

/** Every model of the GraphQL schema: content types first (the registry's, then Strapi's own), then components. */
export function schemaModels(registry: Registry): SchemaModel[] {
  const contentTypes = registry.contentTypes.map(fromRegistry);
  if (!contentTypes.some((model) => model.uid === registry.file.uid)) contentTypes.push(fromRegistry(registry.file));
  const has = (uid: string) => contentTypes.some((model) => model.uid === uid);
  const stock = [
    has(USER_UID) ? null : stockUsersPermissions('user'),
    has(ROLE_UID) ? null : stockUsersPermissions('role'),
    stockModel(PERMISSION_UID, 'permission', 'permissions', STOCK_PERMISSION),
    stockModel(FOLDER_UID, 'folder', 'folders', STOCK_FOLDER),
    stockModel(LOCALE_UID, 'locale', 'locales', STOCK_LOCALE),
  ].filter((model): model is SchemaModel => model !== null);
  const all = [...contentTypes, ...stock].map((model) => (model.uid === ROLE_UID ? withPermissions(model) : model));
  return [...all, ...registry.components.map(fromRegistry)];
}
