/**
 * Selections → JSON built by the database. An entry of a content type is
 * `{ id, attributes: { …fields, …populated } }`, a component entry `{ id, [__component], …fields,
 * …populated }`. Every populated attribute is one correlated subquery inside its parent's
 * object, whatever the depth, so a request is one statement.
 */
import type { Model } from '../schema/registry.js';
import type {
  ComponentNode,
  DynamicZoneNode,
  MediaNode,
  PopulateNode,
  PopulateWindow,
  PublicationState,
  RelationNode,
  Selection,
  Shape,
} from '../query/tree.js';
import type { CompileContext } from './context.js';
import { literal, quoteIdentifier as q } from './dialect/dialect.js';
import { compileFilter } from './compile-filter.js';
import { compileSort, sortJoins } from './compile-sort.js';
import { correlate, hopFrom, hopThrough, whereClause, type Hop } from './hops.js';
import { shapedRow, shapedWrapper, type Pairs } from './compile-shape.js';

/** `{ id, attributes }` of the content-type row at `alias`, or the keys of its GraphQL `shape`. */
export function entryJson(context: CompileContext, model: Model, selection: Selection, alias: string, state: PublicationState, shape?: Shape): string {
  if (shape) return shapedRow(context, shape, { alias, selection, populate: (node) => populateValue(context, node, model, alias, state) });
  return context.dialect.object([
    ['id', `${alias}."id"`],
    ['attributes', context.dialect.object(selectionPairs(context, model, selection, alias, state))],
  ]);
}

/** `{ id, [__component], … }` of the component row at `alias`. */
function componentJson(
  context: CompileContext,
  model: Model,
  selection: Selection,
  alias: string,
  state: PublicationState,
  withType: boolean,
  shape?: Shape,
): string {
  if (shape) return shapedRow(context, shape, { alias, selection, populate: (node) => populateValue(context, node, model, alias, state) });
  const head: Pairs = [['id', `${alias}."id"`]];
  if (withType) head.push(['__component', literal(model.uid)]);
  return context.dialect.object([...head, ...selectionPairs(context, model, selection, alias, state)]);
}

function selectionPairs(context: CompileContext, model: Model, selection: Selection, alias: string, state: PublicationState): Pairs {
  const pairs: Pairs = selection.fields.map((field) => [field.name, context.dialect.value(field.type, `${alias}.${q(field.column)}`)]);
  for (const node of selection.populate) {
    pairs.push([node.attribute.name, populateValue(context, node, model, alias, state)]);
  }
  return pairs;
}

function populateValue(context: CompileContext, node: PopulateNode, owner: Model, alias: string, state: PublicationState): string {
  switch (node.kind) {
    case 'relation':
      return relationValue(context, node, owner, alias, node.publicationState ?? state);
    case 'media':
      return mediaValue(context, node, owner, alias, state);
    case 'component':
      return componentValue(context, node, owner, alias, state);
    case 'dynamiczone':
      return dynamicZoneValue(context, node, owner, alias, state);
  }
}

/** The WHERE terms of a populated list: tied to the owner, published when live, the node's filters. */
function rowConditions(
  context: CompileContext,
  hop: Hop,
  owner: string,
  target: Model,
  filters: RelationNode['filters'],
  state: PublicationState,
): string[] {
  const conditions = correlate(hop, owner);
  if (target.draftAndPublish && state === 'live') conditions.push(`${hop.target}."published_at" IS NOT NULL`);
  if (filters) conditions.push(compileFilter(context, filters, hop.target, target));
  return conditions;
}

function countOf(hop: Hop, conditions: readonly string[]): string {
  return `(SELECT count(*) FROM ${hopFrom(hop)}${whereClause(conditions)})`;
}

function relationValue(context: CompileContext, node: RelationNode, owner: Model, alias: string, state: PublicationState): string {
  const { dialect } = context;
  const hop = hopThrough(context, owner, node.attribute, node.target);
  // Compiled only where the rows are: a GraphQL wrapper may ask for none (`{ __typename }`), and
  // PostgreSQL refuses a statement with a parameter its text never uses.
  const conditions = () => rowConditions(context, hop, alias, node.target, node.filters, state);
  if (node.count) {
    return dialect.object([['data', dialect.object([['attributes', dialect.object([['count', countOf(hop, conditions())]])]])]]);
  }
  const element = (rowAlias: string) => entryJson(context, node.target, node.selection, rowAlias, state, node.shape?.row);
  const rows = () => (node.attribute.toMany ? list(context, hop, element, conditions(), node, node.target, false) : single(hop, element(hop.target), conditions()));
  return node.shape ? shapedWrapper(context, node.shape.wrapper, rows) : dialect.object([['data', rows()]]);
}

function mediaValue(context: CompileContext, node: MediaNode, owner: Model, alias: string, state: PublicationState): string {
  const hop = hopThrough(context, owner, node.attribute, node.target);
  const conditions = () => rowConditions(context, hop, alias, node.target, node.filters, state);
  const element = (rowAlias: string) => entryJson(context, node.target, node.selection, rowAlias, state, node.shape?.row);
  // Strapi answers an empty multiple media attribute with { data: null } (GraphQL: `[]`).
  const rows = () =>
    node.attribute.multiple ? list(context, hop, element, conditions(), node, node.target, !node.shape) : single(hop, element(hop.target), conditions());
  return node.shape ? shapedWrapper(context, node.shape.wrapper, rows) : context.dialect.object([['data', rows()]]);
}

function componentValue(context: CompileContext, node: ComponentNode, owner: Model, alias: string, state: PublicationState): string {
  const hop = hopThrough(context, owner, node.attribute, node.component);
  const conditions = rowConditions(context, hop, alias, node.component, node.filters, state);
  if (node.count) return context.dialect.object([['count', countOf(hop, conditions)]]);
  const element = (rowAlias: string) => componentJson(context, node.component, node.selection, rowAlias, state, false, node.shape?.row);
  if (!node.attribute.repeatable) return single(hop, element(hop.target), conditions);
  return list(context, hop, element, conditions, node, node.component, false);
}

/** A to-one value: the first row, or NULL. No ORDER BY: a sorter would strip SQLite's JSON subtype. */
function single(hop: Hop, element: string, conditions: readonly string[]): string {
  return `(SELECT ${element} FROM ${hopFrom(hop)}${whereClause(conditions)} LIMIT 1)`;
}

/**
 * A to-many value in the node's sort order, then the link's own order. With a per-parent window,
 * the rows are first limited in a subquery and the JSON is built from its columns.
 */
function list(
  context: CompileContext,
  hop: Hop,
  element: (rowAlias: string) => string,
  conditions: readonly string[],
  node: { sort: RelationNode['sort']; window: PopulateWindow | null },
  target: Model,
  nullWhenEmpty: boolean,
): string {
  const sort = compileSort(context, node.sort, hop.target, target);
  const order = [...sort.map((term) => term.term), ...hop.order];
  const from = `${hopFrom(hop)}${sortJoins(sort)}`;
  if (!node.window) {
    return `(SELECT ${context.dialect.arrayAggregate(element(hop.target), order, nullWhenEmpty)} FROM ${from}${whereClause(conditions)})`;
  }
  const { dialect } = context;
  if (dialect.limitedArrayAggregate) {
    const limited = dialect.limitedArrayAggregate(element(hop.target), order, nullWhenEmpty, node.window.limit, node.window.start);
    return `(SELECT ${limited} FROM ${from}${whereClause(conditions)})`;
  }
  const rows = context.alias('w');
  const inner =
    `SELECT ${hop.target}.*, row_number() OVER (ORDER BY ${order.join(', ')}) AS "__rank" ` +
    `FROM ${from}${whereClause(conditions)} ORDER BY ${order.join(', ')}${windowClause(context, node.window)}`;
  return `(SELECT ${context.dialect.arrayAggregate(element(rows), [`${rows}."__rank"`], nullWhenEmpty)} FROM (${inner}) ${rows})`;
}

function windowClause(context: CompileContext, window: PopulateWindow): string {
  const offset = context.rowCount(window.start);
  if (window.limit === null) return context.dialect.name === 'sqlite' ? ` LIMIT -1 OFFSET ${offset}` : ` OFFSET ${offset}`;
  return ` LIMIT ${context.rowCount(window.limit)} OFFSET ${offset}`;
}

/**
 * A dynamic zone: the owner's join rows in zone order, each built from its component's table
 * (polymorphic through component_type); entries of components not asked for are dropped.
 */
function dynamicZoneValue(context: CompileContext, node: DynamicZoneNode, owner: Model, alias: string, state: PublicationState): string {
  const { dialect } = context;
  if (!node.parts.length) return `(SELECT ${dialect.arrayAggregate('NULL', [], false)} WHERE 1 = 0)`;
  const join = context.alias('j');
  const conditions = [
    `${join}."entity_id" = ${alias}."id"`,
    `${join}."field" = ${literal(node.attribute.name)}`,
    `${join}."component_type" IN (${node.parts.map((part) => literal(part.component.uid)).join(', ')})`,
    ...node.parts.filter((part) => part.filters).map((part) => {
      const row = context.alias('c');
      const matching = compileFilter(context, part.filters!, row, part.component);
      return `(${join}."component_type" <> ${literal(part.component.uid)} OR ${join}."component_id" IN (SELECT ${row}."id" FROM ${q(part.component.tableName)} ${row} WHERE ${matching}))`;
    }),
  ];
  const table = `${q(owner.componentJoinTable as string)} ${join}`;
  if (node.count) return dialect.object([['count', `(SELECT count(*) FROM ${table}${whereClause(conditions)})`]]);
  // A window is limited in a FROM subquery, or by the aggregate itself where the engine can.
  const inSubquery = node.window !== null && !dialect.limitedArrayAggregate;
  const rows = inSubquery ? context.alias('w') : join;
  const cases = node.parts.map((part) => {
    const row = context.alias('c');
    const entry = componentJson(context, part.component, part.selection, row, state, true, part.shape);
    return `WHEN ${literal(part.component.uid)} THEN (SELECT ${entry} FROM ${q(part.component.tableName)} ${row} WHERE ${row}."id" = ${rows}."component_id")`;
  });
  const element = `CASE ${rows}."component_type" ${cases.join(' ')} END`;
  const order = [`${rows}."order"`, `${rows}."id"`];
  if (node.window && dialect.limitedArrayAggregate) {
    return `(SELECT ${dialect.limitedArrayAggregate(element, order, false, node.window.limit, node.window.start)} FROM ${table}${whereClause(conditions)})`;
  }
  const source = inSubquery
    ? `(SELECT ${join}.* FROM ${table}${whereClause(conditions)} ORDER BY ${join}."order", ${join}."id"${windowClause(context, node.window!)}) ${rows}`
    : table;
  const where = inSubquery ? '' : whereClause(conditions);
  return `(SELECT ${dialect.arrayAggregate(element, order, false)} FROM ${source}${where})`;
}

