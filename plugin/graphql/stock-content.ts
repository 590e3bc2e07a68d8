/**
 * Strapi's own content types that the GraphQL schema serves but the registry does not hold, as
 * models the door's translation, access stage and compiler read like any other:
 *
 *   - the i18n locale (`i18NLocales`, `i18NLocale`): its entries are the locales the API serves
 *     (storage/strapi-locales.ts, the source of `GET /i18n/locales`), held in memory, so its
 *     model is only read by the parsers (listed-field.ts answers it);
 *   - the users-permissions permission (a role's `permissions`): its entries come from
 *     permissions.yaml (role-permissions.ts), so its model too is only read by the parsers;
 *   - the upload folder (`uploadFolders`, `uploadFolder`): Strapi 4.26's `upload_folders` table
 *     and its link tables (upload/folder-tables.ts), read by the one statement like a content
 *     type, its relations (`parent`, `children`, `files`) included.
 */
import { defaultFields, NO_CONSTRAINTS, type Attribute, type Model, type RelationAttribute, type Registry, type ScalarAttribute, type StoredScalarType } from '../schema/registry.js';
import { FOLDER_UID, LOCALE_UID, PERMISSION_UID } from './schema/models.js';
import { FOLDER_LINKS_TABLE, FOLDER_PARENT_LINKS_TABLE, FOLDERS_TABLE } from '../upload/folder-tables.js';
import { LOCALE_TABLE } from '../storage/strapi-locales.js';

function scalar(name: string, type: StoredScalarType, column: string): ScalarAttribute {
  return {
    kind: 'scalar',
    name,
    type,
    column,
    hidden: false,
    searchable: type === 'string',
    required: false,
    unique: false,
    enum: null,
    default: null,
    constraints: NO_CONSTRAINTS,
    localized: false,
    implicit: name === 'createdAt' || name === 'updatedAt',
  };
}

const TIMESTAMPS = [scalar('createdAt', 'datetime', 'created_at'), scalar('updatedAt', 'datetime', 'updated_at')];

function stockModel(uid: string, singularName: string, pluralName: string, tableName: string, attributes: readonly Attribute[]): Model {
  const map = new Map<string, Attribute>(attributes.map((attribute) => [attribute.name, attribute]));
  return {
    uid,
    modelType: 'contentType',
    kind: 'collectionType',
    singularName,
    pluralName,
    displayName: singularName,
    tableName,
    componentJoinTable: null,
    draftAndPublish: false,
    localized: false,
    attributes: map,
    defaultFields: defaultFields(map),
    hasCreatorColumns: true,
    indexes: [],
    source: null,
  };
}

export const LOCALE_MODEL: Model = stockModel(LOCALE_UID, 'locale', 'locales', LOCALE_TABLE, [scalar('name', 'string', 'name'), scalar('code', 'string', 'code'), ...TIMESTAMPS]);

/** The users-permissions permission: a role's `permissions` are answered from permissions.yaml (role-permissions.ts). */
export const PERMISSION_MODEL: Model = stockModel(PERMISSION_UID, 'permission', 'permissions', 'up_permissions', [scalar('action', 'string', 'action'), ...TIMESTAMPS]);

/** A relation of a folder, read through one of Strapi's link tables (`source` is the folder's side). */
function folderRelation(name: string, target: string, toMany: boolean, table: string, sourceColumn: string, targetColumn: string, orderColumn: string | null): RelationAttribute {
  return {
    kind: 'relation',
    name,
    relation: toMany ? 'oneToMany' : 'manyToOne',
    target,
    toMany,
    hidden: false,
    inversedBy: null,
    mappedBy: null,
    link: { table, sourceColumn, targetColumn, orderColumn },
    // Never written through the API: no side of these creates a table here (upload/folder-tables.ts does).
    linkTable: null,
    implicit: false,
    required: false,
  };
}

export function folderModel(registry: Registry): Model {
  return stockModel(FOLDER_UID, 'folder', 'folders', FOLDERS_TABLE, [
    scalar('name', 'string', 'name'),
    scalar('pathId', 'integer', 'path_id'),
    folderRelation('parent', FOLDER_UID, false, FOLDER_PARENT_LINKS_TABLE, 'folder_id', 'inv_folder_id', null),
    folderRelation('children', FOLDER_UID, true, FOLDER_PARENT_LINKS_TABLE, 'inv_folder_id', 'folder_id', 'folder_order'),
    folderRelation('files', registry.file.uid, true, FOLDER_LINKS_TABLE, 'folder_id', 'file_id', 'file_order'),
    scalar('path', 'string', 'path'),
    ...TIMESTAMPS,
  ]);
}

/** The registry the GraphQL door translates against: the schema's models and the folder's. */
export function withStockContent(registry: Registry, folders: boolean): Registry {
  if (!folders) return registry;
  return { ...registry, models: new Map([...registry.models, [FOLDER_UID, folderModel(registry)]]) };
}
