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
} from './document.js';
import { problemAt, SchemaError, type SchemaProblem } from './problems.js';
import {
  FILE_UID,
  NO_CONSTRAINTS,
  type Attribute,
  type DeclaredIndex,
  type Model,
  type Registry,
  type ScalarAttribute,
  type ScalarConstraints,
  defaultFields,
} from './registry.js';
import { closestName } from './closest-name.js';
import { buildFileModel } from './file-model.js';
import type { Declared } from './declared.js';
import { buildRelation, checkRelation, localizationsRelation } from './relations.js';
import { checkIndexClashes, declaredIndexes, type LayoutIndex } from './indexes.js';
import { columnName, componentJoinTableName } from '../storage/naming.js';
import { describeLayout } from '../storage/layout.js';

/**
 * Names no attribute may have: the query keywords of populate objects (Strapi #14511) and the
 * names of the attributes the API adds itself. docs/deviations.md lists them.
 */
export const RESERVED_ATTRIBUTE_NAMES: ReadonlySet<string> = new Set([
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
  'localizations',
  'createdBy',
  'updatedBy',
]);

/**
 * Reserved on localized types only, where the entry's locale has that name: elsewhere (a type
 * that is not localized, a component) `locale` is a plain attribute, as Strapi 4.26.2 serves it.
 */
export const LOCALIZED_RESERVED_NAMES: ReadonlySet<string> = new Set(['locale']);

const STRING_LIKE = new Set(['string', 'text', 'richtext', 'email', 'uid', 'enumeration']);

export interface NormalizeOptions {
  defaultLocale?: string;
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
  checkConstraints(declared, problems);
  const declarations = [...declared.values()].flatMap((entry) => declaredIndexes(entry, problems));
  if (problems.length) throw new SchemaError(problems);

  const models = new Map<string, Model>();
  for (const entry of declared.values()) {
    const indexes = declarations.filter((declaration) => declaration.entry === entry).map((declaration) => declaration.index);
    models.set(entry.uid, buildModel(entry, declared, resolveTarget, indexes));
  }
  const file = buildFileModel();
  models.set(FILE_UID, file);

  const contentTypeModels = [...models.values()].filter((model) => model.modelType === 'contentType' && model.uid !== FILE_UID);
  const routes = new Map<string, Model>();
  for (const model of contentTypeModels) {
    routes.set(model.kind === 'singleType' ? model.singularName : (model.pluralName as string), model);
  }
  const registry: Registry = {
    models,
    contentTypes: contentTypeModels,
    components: [...models.values()].filter((model) => model.modelType === 'component'),
    file,
    routes,
    i18n: { defaultLocale: options.defaultLocale ?? 'en' },
  };
  checkIndexClashes(declarations, layoutIndexes(registry), problems);
  if (problems.length) throw new SchemaError(problems);
  return deepFreeze(registry);
}

/** The indexes of the registry's layout that no schema file declares: Strapi's and the API's own. */
function layoutIndexes(registry: Registry): LayoutIndex[] {
  return describeLayout(registry).tables.flatMap((table) =>
    table.indexes.filter((index) => index.origin !== 'schema').map((index) => ({ table: table.name, name: index.name, columns: index.columns })),
  );
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

function reservedMessage(name: string): string {
  return `"${name}" is reserved (a query keyword or a name the API gives attributes of its own: ${[...RESERVED_ATTRIBUTE_NAMES].join(', ')}); choose another name`;
}

function checkAttributeNames(declared: Map<string, Declared>, problems: SchemaProblem[]): void {
  for (const entry of declared.values()) {
    const localized = !entry.isComponent && (entry.loaded.document as ContentTypeDocument).pluginOptions?.i18n?.localized === true;
    for (const name of Object.keys(entry.attributes)) {
      if (RESERVED_ATTRIBUTE_NAMES.has(name)) {
        problems.push(problemAt(entry.loaded, ['attributes', name], reservedMessage(name)));
      } else if (localized && LOCALIZED_RESERVED_NAMES.has(name)) {
        problems.push(problemAt(entry.loaded, ['attributes', name], `"${name}" is reserved on a localized type (the locale of its entries); choose another name`));
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
        if (!target?.isComponent) at('component', unknownComponentMessage(attribute.component, declared));
      } else if (attribute.type === 'dynamiczone') {
        attribute.components.forEach((uid, index) => {
          if (!declared.get(uid)?.isComponent) {
            problems.push(problemAt(entry.loaded, ['attributes', name, 'components', index], unknownComponentMessage(uid, declared)));
          }
        });
        if (entry.isComponent) at('type', 'a dynamic zone cannot be declared inside a component');
      } else if (attribute.type === 'relation') {
        checkRelation(entry, name, attribute, declared, resolveTarget, at);
      } else if (attribute.type === 'enumeration' && !attribute.enum?.length) {
        at('enum', 'an enumeration needs a non-empty "enum" list');
      } else if (attribute.type === 'uid' && attribute.targetField !== undefined) {
        const field = entry.attributes[attribute.targetField];
        if (!field && entry.loaded.invalidAttributes?.has(attribute.targetField)) continue;
        if (!field || !['string', 'text', 'uid', 'email'].includes(field.type)) {
          at('targetField', `"${attribute.targetField}" is not a string attribute of this type`);
        }
      }
    }
  }
}

/** Names the schema's own component nearest to an unknown uid, if one is near. */
function unknownComponentMessage(uid: string, declared: Map<string, Declared>): string {
  const components = [...declared.values()].filter((entry) => entry.isComponent).map((entry) => entry.uid);
  const close = closestName(uid, components);
  if (close) return `unknown component "${uid}"; did you mean "${close}"?`;
  return `unknown component "${uid}"; no component of this schema has that uid`;
}

/** A bound written as a string (biginteger bounds past 2^53) must still be a number. */
const NUMERIC_TEXT = /^-?\d+(?:\.\d+)?$/;

/** The write checker compiles `regex` and compares with `min`/`max`: broken ones are schema problems, not 500s. */
function checkConstraints(declared: Map<string, Declared>, problems: SchemaProblem[]): void {
  for (const entry of declared.values()) {
    for (const [name, attribute] of Object.entries(entry.attributes)) {
      const at = (key: string, message: string) => problems.push(problemAt(entry.loaded, ['attributes', name, key], message));
      for (const key of ['min', 'max'] as const) {
        const bound = attribute[key];
        if (typeof bound === 'string' && !NUMERIC_TEXT.test(bound)) at(key, `"${bound}" is not a number`);
      }
      if (attribute.regex !== undefined) {
        try {
          new RegExp(attribute.regex);
        } catch {
          at('regex', `"${attribute.regex}" is not a valid JavaScript regular expression`);
        }
      }
    }
  }
}

function buildModel(
  entry: Declared,
  declared: Map<string, Declared>,
  resolveTarget: (target: string) => string | null,
  indexes: readonly DeclaredIndex[],
): Model {
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
    indexes,
    source,
  };
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
    constraints: NO_CONSTRAINTS,
    localized: true,
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
  const required = doc.required === true;
  switch (doc.type) {
    case 'relation':
      return buildRelation(entry, name, doc, declared, resolveTarget(doc.target) as string);
    case 'media':
      return { kind: 'media', name, multiple: doc.multiple === true, hidden, allowedTypes: doc.allowedTypes ?? null, required };
    case 'component':
      return { kind: 'component', name, component: doc.component, repeatable: doc.repeatable === true, hidden, required, ...itemCounts(doc) };
    case 'dynamiczone':
      return { kind: 'dynamiczone', name, components: [...doc.components], hidden, required, ...itemCounts(doc) };
    default:
      return {
        kind: 'scalar',
        name,
        ...(doc.type === 'blocks' ? { type: 'json', format: 'blocks' } : { type: doc.type }),
        column: columnName(name),
        hidden,
        searchable: STRING_LIKE.has(doc.type) && !hidden && doc.searchable !== false,
        required,
        unique: doc.unique === true || doc.type === 'uid',
        enum: doc.enum ?? null,
        default: doc.default ?? null,
        constraints: constraintsOf(doc),
        localized: (doc.pluginOptions?.i18n as { localized?: unknown } | undefined)?.localized === true || doc.type === 'uid',
        implicit: false,
      };
  }
}

function constraintsOf(doc: AttributeDocument): ScalarConstraints {
  return {
    minLength: doc.minLength ?? null,
    maxLength: doc.maxLength ?? null,
    min: doc.min ?? null,
    max: doc.max ?? null,
    regex: doc.regex ?? null,
  };
}

/** The JSON Schema allows only integers for the item counts of components and zones. */
function itemCounts(doc: AttributeDocument): { min: number | null; max: number | null } {
  return { min: typeof doc.min === 'number' ? doc.min : null, max: typeof doc.max === 'number' ? doc.max : null };
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    const children = value instanceof Map ? [...value.values()] : Object.values(value);
    for (const child of children) deepFreeze(child);
  }
  return value;
}
