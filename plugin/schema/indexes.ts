/**
 * The indexes a schema file declares: `index: true` on an attribute and the type's `indexes:`
 * list (Strapi v4 has neither). Each must name attributes with a column in the type's own table;
 * a relation, media, component or dynamic zone has none (their link and join tables already carry
 * Strapi's indexes). Problems are collected with the file, YAML path and line:column of the
 * declaration, like every other schema problem.
 */
import type { AttributeDocument, ContentTypeDocument } from './document.js';
import type { Declared } from './declared.js';
import { closestName } from './closest-name.js';
import { problemAt, type SchemaProblem } from './problems.js';
import type { DeclaredIndex } from './registry.js';
import { describeKeys, indexKeys, keysInName, type IndexKeys } from '../storage/index-marks.js';
import { columnName } from '../storage/naming.js';

/** Where an index was declared, to report a problem found once the whole layout is known. */
export interface IndexDeclaration {
  readonly index: DeclaredIndex;
  readonly entry: Declared;
  readonly path: readonly (string | number)[];
}

/**
 * Scalar types whose column is not indexed: long text (MariaDB refuses an index on a TEXT column
 * without a prefix length, and sorting or filtering on a whole article body is not what an index
 * serves), json and blocks (no useful order), password (never filtered or sorted on).
 */
const NOT_INDEXABLE_REASONS: Readonly<Record<string, string>> = {
  text: 'a long text column (MariaDB indexes none); index a string attribute instead',
  richtext: 'a long text column (MariaDB indexes none); index a string attribute instead',
  json: 'its values have no order an index could serve',
  blocks: 'its values have no order an index could serve',
  password: 'it is never filtered or sorted on',
};
const NOT_INDEXABLE = new Set(Object.keys(NOT_INDEXABLE_REASONS));

/** Why an attribute has no column an index could cover, or null when it has one. */
function noColumnReason(entry: Declared, attribute: AttributeDocument): string | null {
  switch (attribute.type) {
    case 'relation':
      return `a relation has no column in ${entry.tableName}: its links are in a link table that Strapi's layout already indexes`;
    case 'media':
      return `media has no column in ${entry.tableName}: its files are linked through files_related_morphs, which Strapi's layout already indexes`;
    case 'component':
    case 'dynamiczone':
      return `a ${attribute.type === 'component' ? 'component' : 'dynamic zone'} has no column in ${entry.tableName}: declare the index in the component's own file`;
    default:
      return NOT_INDEXABLE.has(attribute.type) ? `a ${attribute.type} attribute cannot be indexed: ${NOT_INDEXABLE_REASONS[attribute.type]}` : null;
  }
}

/** The implicit attributes of a type that are columns of its own table, by attribute name. */
function implicitColumns(entry: Declared): Map<string, string> {
  const columns = new Map([['id', 'id']]);
  if (entry.isComponent) return columns;
  const document = entry.loaded.document as ContentTypeDocument;
  columns.set('createdAt', 'created_at').set('updatedAt', 'updated_at');
  if (document.options?.draftAndPublish === true) columns.set('publishedAt', 'published_at');
  if (document.pluginOptions?.i18n?.localized === true) columns.set('locale', 'locale');
  return columns;
}

/** `<table>_<columns>_index`, as Strapi names the indexes it declares itself; a descending key's column followed by `_desc`. */
export function defaultIndexName(tableName: string, keys: IndexKeys): string {
  return `${tableName}_${keysInName(keys).join('_')}_index`;
}

/**
 * The indexes a declared type asks for, checked: attribute-level ones first, in attribute order,
 * then the `indexes` list. Problems go to `problems`; a faulty declaration is left out.
 */
export function declaredIndexes(entry: Declared, problems: SchemaProblem[]): IndexDeclaration[] {
  const declarations: IndexDeclaration[] = [];
  const implicit = implicitColumns(entry);
  for (const [name, attribute] of Object.entries(entry.attributes)) {
    if (attribute.index !== true) continue;
    const path = ['attributes', name, 'index'];
    const reason = noColumnReason(entry, attribute);
    if (reason) {
      problems.push(problemAt(entry.loaded, path, reason));
      continue;
    }
    const columns = [columnName(name)];
    declarations.push({ entry, path, index: { name: defaultIndexName(entry.tableName, { columns }), attributes: [name], columns, descending: [false] } });
  }
  const listed = (entry.loaded.document as { indexes?: { name?: string; attributes: string[] }[] }).indexes ?? [];
  listed.forEach((declaration, position) => {
    const columns: string[] = [];
    const descending: boolean[] = [];
    const names: string[] = [];
    let usable = true;
    declaration.attributes.forEach((written, item) => {
      // `views:desc`, as a sort is written; the schema file's JSON schema allows only `:asc` and `:desc`.
      const [name = written, direction] = written.split(':');
      names.push(name);
      const at = (message: string) => problems.push(problemAt(entry.loaded, ['indexes', position, 'attributes', item], message));
      const attribute = entry.attributes[name];
      const column = implicit.get(name) ?? (attribute && !noColumnReason(entry, attribute) ? columnName(name) : null);
      usable &&= column !== null && !columns.includes(column);
      if (column !== null && columns.includes(column)) at(`"${name}" is listed twice in this index`);
      else if (column !== null) {
        columns.push(column);
        descending.push(direction === 'desc');
      } else if (attribute) at(noColumnReason(entry, attribute) as string);
      else if (!entry.loaded.invalidAttributes?.has(name)) at(unknownAttributeMessage(name, entry, implicit));
    });
    if (!usable) return;
    const name = declaration.name ?? defaultIndexName(entry.tableName, { columns, descending });
    declarations.push({ entry, path: ['indexes', position], index: { name, attributes: names, columns, descending } });
  });
  return declarations;
}

function unknownAttributeMessage(name: string, entry: Declared, implicit: Map<string, string>): string {
  const close = closestName(name, [...Object.keys(entry.attributes), ...implicit.keys()]);
  return `unknown attribute "${name}"${close ? `; did you mean "${close}"?` : ` of ${entry.tableName}`}`;
}

/** An index of the whole layout, as the name and column check below compares them. */
export interface LayoutIndex extends IndexKeys {
  readonly table: string;
  readonly name: string;
}

/**
 * PostgreSQL keeps the first 63 bytes of a name and SQLite and PostgreSQL names are unique per
 * database, not per table: two names alike in their first 63 bytes are one name.
 */
function comparableName(name: string): string {
  let cut = name;
  while (Buffer.byteLength(cut) > 63) cut = cut.slice(0, -1);
  return cut;
}

/**
 * Each declared index against the declared ones before it and the names of the layout's other
 * indexes (Strapi's and the API's own): one over the same columns of the same table as another
 * declared one is a duplicate, and a name another index has is a clash. A declared index over the
 * columns of one of Strapi's is allowed: on PostgreSQL it is made in the API's sort order (NULL
 * first, strings `COLLATE "C"`: declared-indexes.ts), which Strapi's does not serve. The clean
 * ones are returned.
 */
export function checkIndexClashes(declarations: readonly IndexDeclaration[], layoutIndexes: readonly LayoutIndex[], problems: SchemaProblem[]): IndexDeclaration[] {
  const named: LayoutIndex[] = [...layoutIndexes];
  const declared: LayoutIndex[] = [];
  const clean: IndexDeclaration[] = [];
  for (const declaration of declarations) {
    const index = { table: declaration.entry.tableName, ...declaration.index };
    const same = declared.find((other) => other.table === index.table && indexKeys(other) === indexKeys(index));
    const clash = named.find((other) => comparableName(other.name) === comparableName(index.name));
    const at = (message: string) => problems.push(problemAt(declaration.entry.loaded, declaration.path, message));
    if (same) at(`duplicate index: ${same.name} is declared over ${describeKeys(index)} already`);
    else if (clash) at(`index name "${index.name}" is already used by an index of ${clash.table}${clash.name === index.name ? '' : ` (${clash.name}: PostgreSQL keeps the first 63 bytes of a name)`}; give this one a "name"`);
    else {
      named.push(index);
      declared.push(index);
      clean.push(declaration);
    }
  }
  return clean;
}

