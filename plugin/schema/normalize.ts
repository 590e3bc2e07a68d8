/**
 * Turns validated schema documents into the frozen registry: resolves targets and component uids,
 * pairs inversedBy/mappedBy sides, adds Strapi's implicit attributes and names every table and
 * column of the Strapi v4 layout. Cross-file problems are collected, never thrown one by one.
 */
import type {
  AttributeDocument,
  ContentTypeDocument,
  LoadedComponent,
  LoadedContentType,
  LoadedDocument,
  RelationAttributeDocument,
} from './document.js';
import { problemAt, SchemaError, type SchemaProblem } from './problems.js';
import {
  FILE_UID,
  type Attribute,
  type LinkPath,
  type LinkTable,
  type Model,
  type Registry,
  type RelationAttribute,
  type ScalarAttribute,
} from './registry.js';
import { buildFileModel } from './file-model.js';
import { columnName, componentJoinTableName, joinColumnName, linkTableName, orderColumnName } from '../storage/naming.js';

/** Names that would collide with the query keywords inside populate objects (Strapi #14511). */
const RESERVED_ATTRIBUTE_NAMES = new Set([
  'id',
  'fields',
  'populate',
  'filters',
  'sort',
  'on',
  'count',
  'createdAt',
  'updatedAt',
  'publishedAt',
  'locale',
  'localizations',
  'createdBy',
  'updatedBy',
]);

const STRING_LIKE = new Set(['string', 'text', 'richtext', 'email', 'uid', 'enumeration']);

export interface NormalizeOptions {
  defaultLocale?: string;
}

interface Declared {
  uid: string;
  loaded: LoadedDocument<ContentTypeDocument> | LoadedComponent;
  isComponent: boolean;
  singularName: string;
  tableName: string;
  attributes: Record<string, AttributeDocument>;
}

export function normalizeSchema(
  contentTypes: readonly LoadedContentType[],
  components: readonly LoadedComponent[],
  options: NormalizeOptions = {},
): Registry {
  const problems: SchemaProblem[] = [];
  const declared = declareModels(contentTypes, components, problems);
  const resolveTarget = targetResolver(declared);

  checkAttributeNames(declared, problems);
  checkReferences(declared, resolveTarget, problems);
  if (problems.length) throw new SchemaError(problems);

  const models = new Map<string, Model>();
  for (const entry of declared.values()) models.set(entry.uid, buildModel(entry, declared, resolveTarget));
  const file = buildFileModel();
  models.set(FILE_UID, file);

  const contentTypeModels = [...models.values()].filter((model) => model.modelType === 'contentType' && model.uid !== FILE_UID);
  const routes = new Map<string, Model>();
  for (const model of contentTypeModels) {
    routes.set(model.kind === 'singleType' ? model.singularName : (model.pluralName as string), model);
  }
  return deepFreeze({
    models,
    contentTypes: contentTypeModels,
    components: [...models.values()].filter((model) => model.modelType === 'component'),
    file,
    routes,
    i18n: { defaultLocale: options.defaultLocale ?? 'en' },
  });
}

function declareModels(
  contentTypes: readonly LoadedContentType[],
  components: readonly LoadedComponent[],
  problems: SchemaProblem[],
): Map<string, Declared> {
  const declared = new Map<string, Declared>();
  const tables = new Map<string, string>();
  const routes = new Map<string, string>();
  const claim = (map: Map<string, string>, key: string, owner: string, loaded: LoadedDocument<unknown>, path: string[], what: string) => {
    const previous = map.get(key);
    if (previous) problems.push(problemAt(loaded, path, `${what} "${key}" is already used by ${previous}`));
    else map.set(key, owner);
  };
  for (const loaded of contentTypes) {
    const doc = loaded.document;
    const uid = doc.uid ?? `api::${doc.info.singularName}.${doc.info.singularName}`;
    if (declared.has(uid) || uid === FILE_UID) {
      problems.push(problemAt(loaded, ['info', 'singularName'], `content type uid "${uid}" is declared twice`));
      continue;
    }
    claim(tables, doc.collectionName, loaded.file, loaded, ['collectionName'], 'table name');
    claim(routes, doc.info.pluralName, loaded.file, loaded, ['info', 'pluralName'], 'route name');
    if (doc.info.singularName !== doc.info.pluralName) {
      claim(routes, doc.info.singularName, loaded.file, loaded, ['info', 'singularName'], 'route name');
    }
    declared.set(uid, {
      uid,
      loaded,
      isComponent: false,
      singularName: doc.info.singularName,
      tableName: doc.collectionName,
      attributes: doc.attributes,
    });
  }
  for (const loaded of components) {
    if (declared.has(loaded.uid)) {
      problems.push(problemAt(loaded, [], `component uid "${loaded.uid}" is declared twice`));
      continue;
    }
    claim(tables, loaded.document.collectionName, loaded.file, loaded, ['collectionName'], 'table name');
    declared.set(loaded.uid, {
      uid: loaded.uid,
      loaded,
      isComponent: true,
      singularName: loaded.uid.slice(loaded.uid.indexOf('.') + 1),
      tableName: loaded.document.collectionName,
      attributes: loaded.document.attributes,
    });
  }
  if (tables.has('files') || tables.has('files_related_morphs')) {
    const owner = [...declared.values()].find((entry) => entry.tableName === 'files' || entry.tableName === 'files_related_morphs');
    if (owner) problems.push(problemAt(owner.loaded, ['collectionName'], 'table name is reserved for the built-in media file type'));
  }
  return declared;
}

/** Accepts `category`, `api::category.category`, `plugin::users-permissions.user` and `plugin::upload.file`. */
function targetResolver(declared: Map<string, Declared>): (target: string) => string | null {
  const bySingular = new Map<string, string>();
  for (const entry of declared.values()) if (!entry.isComponent) bySingular.set(entry.singularName, entry.uid);
  return (target) => {
    if (target === FILE_UID) return FILE_UID;
    const entry = declared.get(target);
    if (entry && !entry.isComponent) return entry.uid;
    return bySingular.get(target) ?? null;
  };
}

function checkAttributeNames(declared: Map<string, Declared>, problems: SchemaProblem[]): void {
  for (const entry of declared.values()) {
    for (const name of Object.keys(entry.attributes)) {
      if (RESERVED_ATTRIBUTE_NAMES.has(name)) {
        problems.push(
          problemAt(entry.loaded, ['attributes', name], `"${name}" is reserved (a query keyword or an implicit attribute); choose another name`),
        );
      }
    }
  }
}

function checkReferences(
  declared: Map<string, Declared>,
  resolveTarget: (target: string) => string | null,
  problems: SchemaProblem[],
): void {
  for (const entry of declared.values()) {
    for (const [name, attribute] of Object.entries(entry.attributes)) {
      const at = (key: string, message: string) => problems.push(problemAt(entry.loaded, ['attributes', name, key], message));
      if (attribute.type === 'component') {
        const target = declared.get(attribute.component);
        if (!target?.isComponent) at('component', `unknown component "${attribute.component}"; expected a component uid such as shared.seo`);
      } else if (attribute.type === 'dynamiczone') {
        attribute.components.forEach((uid, index) => {
          if (!declared.get(uid)?.isComponent) {
            problems.push(problemAt(entry.loaded, ['attributes', name, 'components', index], `unknown component "${uid}"`));
          }
        });
        if (entry.isComponent) at('type', 'a dynamic zone cannot be declared inside a component');
      } else if (attribute.type === 'relation') {
        checkRelation(entry, name, attribute, declared, resolveTarget, at);
      } else if (attribute.type === 'enumeration' && !attribute.enum?.length) {
        at('enum', 'an enumeration needs a non-empty "enum" list');
      } else if (attribute.type === 'uid' && attribute.targetField !== undefined) {
        const field = entry.attributes[attribute.targetField];
        if (!field || !['string', 'text', 'uid', 'email'].includes(field.type)) {
          at('targetField', `"${attribute.targetField}" is not a string attribute of this type`);
        }
      }
    }
  }
}

const COUNTERPART: Record<string, string> = {
  oneToOne: 'oneToOne',
  manyToOne: 'oneToMany',
  oneToMany: 'manyToOne',
  manyToMany: 'manyToMany',
};

function checkRelation(
  entry: Declared,
  name: string,
  attribute: RelationAttributeDocument,
  declared: Map<string, Declared>,
  resolveTarget: (target: string) => string | null,
  at: (key: string, message: string) => void,
): void {
  const targetUid = resolveTarget(attribute.target);
  if (!targetUid) {
    at('target', `unknown target "${attribute.target}"; expected a content type such as api::category.category`);
    return;
  }
  if (attribute.inversedBy && attribute.mappedBy) {
    at('mappedBy', 'a relation has either inversedBy or mappedBy, not both');
    return;
  }
  const other = attribute.inversedBy ?? attribute.mappedBy;
  if (!other) return;
  if (entry.isComponent) {
    at(attribute.inversedBy ? 'inversedBy' : 'mappedBy', 'relations declared in components are one-way');
    return;
  }
  const target = declared.get(targetUid);
  const counterpart = target?.attributes[other];
  const key = attribute.inversedBy ? 'inversedBy' : 'mappedBy';
  if (!counterpart || counterpart.type !== 'relation') {
    at(key, `"${other}" is not a relation attribute of ${targetUid}`);
    return;
  }
  const pointsBack = resolveTarget(counterpart.target) === entry.uid;
  const agrees = attribute.inversedBy ? counterpart.mappedBy === name : counterpart.inversedBy === name;
  if (!pointsBack || !agrees) {
    const expected = attribute.inversedBy ? `mappedBy: ${name}` : `inversedBy: ${name}`;
    at(key, `${targetUid}.${other} must target ${entry.uid} with "${expected}"`);
    return;
  }
  if (COUNTERPART[attribute.relation] !== counterpart.relation) {
    at('relation', `${attribute.relation} does not pair with ${targetUid}.${other} (${counterpart.relation}); expected ${COUNTERPART[attribute.relation]} there`);
  }
}

function buildModel(entry: Declared, declared: Map<string, Declared>, resolveTarget: (target: string) => string | null): Model {
  const attributes = new Map<string, Attribute>();
  for (const [name, doc] of Object.entries(entry.attributes)) {
    attributes.set(name, buildAttribute(entry, name, doc, declared, resolveTarget));
  }
  const contentType = entry.isComponent ? null : (entry.loaded.document as ContentTypeDocument);
  const draftAndPublish = contentType?.options?.draftAndPublish === true;
  const localized = contentType?.pluginOptions?.i18n?.localized === true;
  if (contentType) {
    attributes.set('createdAt', implicitScalar('createdAt', 'datetime'));
    attributes.set('updatedAt', implicitScalar('updatedAt', 'datetime'));
    if (draftAndPublish) attributes.set('publishedAt', implicitScalar('publishedAt', 'datetime'));
    if (localized) {
      attributes.set('locale', implicitScalar('locale', 'string'));
      attributes.set('localizations', localizationsRelation(entry));
    }
    attributes.set('createdBy', { kind: 'internal', name: 'createdBy', column: 'created_by_id', hidden: true });
    attributes.set('updatedBy', { kind: 'internal', name: 'updatedBy', column: 'updated_by_id', hidden: true });
  }
  const hasComponents = [...attributes.values()].some((a) => a.kind === 'component' || a.kind === 'dynamiczone');
  const source = entry.loaded.locate([]);
  return {
    uid: entry.uid,
    modelType: entry.isComponent ? 'component' : 'contentType',
    kind: contentType ? contentType.kind : null,
    singularName: entry.singularName,
    pluralName: contentType ? contentType.info.pluralName : null,
    displayName: entry.isComponent ? (entry.loaded.document.info.displayName ?? entry.singularName) : contentType!.info.displayName,
    tableName: entry.tableName,
    componentJoinTable: hasComponents ? componentJoinTableName(entry.tableName) : null,
    draftAndPublish,
    localized,
    attributes,
    defaultFields: defaultFields(attributes),
    hasCreatorColumns: !entry.isComponent,
    source,
  };
}

export function defaultFields(attributes: ReadonlyMap<string, Attribute>): ScalarAttribute[] {
  return [...attributes.values()].filter((a): a is ScalarAttribute => a.kind === 'scalar' && !a.hidden);
}

export function implicitScalar(name: string, type: 'datetime' | 'string'): ScalarAttribute {
  return {
    kind: 'scalar',
    name,
    type,
    column: columnName(name),
    hidden: false,
    searchable: false,
    required: false,
    unique: false,
    enum: null,
    default: null,
    implicit: true,
  };
}

function buildAttribute(
  entry: Declared,
  name: string,
  doc: AttributeDocument,
  declared: Map<string, Declared>,
  resolveTarget: (target: string) => string | null,
): Attribute {
  const hidden = doc.private === true || doc.type === 'password';
  switch (doc.type) {
    case 'relation':
      return buildRelation(entry, name, doc, declared, resolveTarget(doc.target) as string);
    case 'media':
      return { kind: 'media', name, multiple: doc.multiple === true, hidden, allowedTypes: doc.allowedTypes ?? null };
    case 'component':
      return { kind: 'component', name, component: doc.component, repeatable: doc.repeatable === true, hidden };
    case 'dynamiczone':
      return { kind: 'dynamiczone', name, components: [...doc.components], hidden };
    default:
      return {
        kind: 'scalar',
        name,
        type: doc.type,
        column: columnName(name),
        hidden,
        searchable: STRING_LIKE.has(doc.type) && !hidden && doc.searchable !== false,
        required: doc.required === true,
        unique: doc.unique === true || doc.type === 'uid',
        enum: doc.enum ?? null,
        default: doc.default ?? null,
        implicit: false,
      };
  }
}

/** Strapi's createJoinTable: the owning side's link table. */
export function ownerLinkTable(
  ownerTable: string,
  ownerSingular: string,
  attributeName: string,
  relation: string,
  bidirectional: boolean,
  targetTable: string,
  targetSingular: string,
): LinkTable {
  const joinColumn = joinColumnName(ownerSingular);
  let inverseJoinColumn = joinColumnName(targetSingular);
  if (joinColumn === inverseJoinColumn) inverseJoinColumn = `inv_${inverseJoinColumn}`;
  const orderColumn = orderColumnName(targetSingular);
  let inverseOrderColumn = orderColumnName(ownerSingular);
  if (relation === 'manyToMany' && orderColumn === inverseOrderColumn) inverseOrderColumn = `inv_${inverseOrderColumn}`;
  const anyToMany = relation === 'oneToMany' || relation === 'manyToMany';
  const manyToAny = relation === 'manyToOne' || relation === 'manyToMany';
  return {
    name: linkTableName(ownerTable, attributeName),
    ownerTable,
    targetTable,
    joinColumn,
    inverseJoinColumn,
    orderColumn: anyToMany ? orderColumn : null,
    inverseOrderColumn: bidirectional && manyToAny ? inverseOrderColumn : null,
  };
}

function buildRelation(
  entry: Declared,
  name: string,
  doc: RelationAttributeDocument,
  declared: Map<string, Declared>,
  targetUid: string,
): RelationAttribute {
  const target: Pick<Declared, 'tableName' | 'singularName' | 'attributes'> =
    targetUid === FILE_UID ? { tableName: 'files', singularName: 'file', attributes: {} } : declared.get(targetUid)!;
  const base = {
    kind: 'relation' as const,
    name,
    relation: doc.relation,
    target: targetUid,
    toMany: doc.relation === 'oneToMany' || doc.relation === 'manyToMany',
    hidden: doc.private === true,
    inversedBy: doc.inversedBy ?? null,
    mappedBy: doc.mappedBy ?? null,
    implicit: false,
  };
  if (doc.mappedBy) {
    const owner = target.attributes[doc.mappedBy] as RelationAttributeDocument;
    const table = ownerLinkTable(target.tableName, target.singularName, doc.mappedBy, owner.relation, true, entry.tableName, entry.singularName);
    const link: LinkPath = {
      table: table.name,
      sourceColumn: table.inverseJoinColumn,
      targetColumn: table.joinColumn,
      orderColumn: table.inverseOrderColumn,
    };
    return { ...base, link, linkTable: null };
  }
  const table = ownerLinkTable(entry.tableName, entry.singularName, name, doc.relation, Boolean(doc.inversedBy), target.tableName, target.singularName);
  return { ...base, link: ownerLinkPath(table), linkTable: table };
}

function ownerLinkPath(table: LinkTable): LinkPath {
  return { table: table.name, sourceColumn: table.joinColumn, targetColumn: table.inverseJoinColumn, orderColumn: table.orderColumn };
}

/** i18n's implicit `localizations`: a one-way oneToMany to the same type. */
function localizationsRelation(entry: Declared): RelationAttribute {
  const table = ownerLinkTable(entry.tableName, entry.singularName, 'localizations', 'oneToMany', false, entry.tableName, entry.singularName);
  return {
    kind: 'relation',
    name: 'localizations',
    relation: 'oneToMany',
    target: entry.uid,
    toMany: true,
    hidden: false,
    inversedBy: null,
    mappedBy: null,
    link: ownerLinkPath(table),
    linkTable: table,
    implicit: true,
  };
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    const children = value instanceof Map ? [...value.values()] : Object.values(value);
    for (const child of children) deepFreeze(child);
  }
  return value;
}
