/**
 * A root field of a GraphQL query → the query tree the REST door would build for the same data,
 * with the GraphQL answer's shape on every node (query/tree.ts `Shape`). Arguments are coerced by
 * graphql-js, turned into the REST door's query object and read by the same parsers, so filters,
 * sort, pagination, locale and publication state mean exactly what they mean on REST; the
 * selection set becomes the tree's fields and populate nodes, one node per response key, so one
 * relation asked twice under two aliases is loaded twice with its own arguments.
 */
import { getNamedType, type FieldNode, type GraphQLField, type GraphQLObjectType } from 'graphql';
import { getArgumentValues } from 'graphql/execution/values.js';
import { ValidationError } from '../errors.js';
import { parsePopulate } from '../query/parse-populate.js';
import { parseQuery, type QueryLimits } from '../query/parse.js';
import { checkRelationHops, DEFAULT_MAX_RELATION_HOPS } from '../query/relation-hops.js';
import { MAX_POPULATE_DEPTH, populateDepth, tooDeep } from '../query/parse-populate.js';
import type { DynamicZoneNode, Filter, PopulateNode, RootQuery, Selection, Shape, ShapeKey } from '../query/tree.js';
import { isPopulatable, type DynamicZoneAttribute, type Model, type PopulatableAttribute, type Registry, type ScalarAttribute } from '../schema/registry.js';
import { collectFields, subSelections, type OperationContext } from './collect-fields.js';
import { restFilters } from './filters.js';
import { graphqlWindow } from './pagination.js';

export interface TranslateContext extends OperationContext {
  readonly registry: Registry;
  /** The list limits of GraphQL (Strapi's plugin: 10 by default, no maximum unless configured). */
  readonly limits: QueryLimits;
  /** The GraphQL object type of a component, by the component's uid (`ComponentSharedSeo`). */
  readonly componentTypeName: (uid: string) => string;
  /**
   * A field of a type that the registry does not hold but the door answers (a role's
   * `permissions`, role-permissions.ts): its shape key, or null to answer it null.
   */
  readonly outsideField?: (context: TranslateContext, model: Model, key: string, field: GraphQLField<unknown, unknown>, nodes: readonly FieldNode[]) => ShapeKey | null;
}

/** What a root field reads: a type, and one entry (by id) or a list (a single type: its entry). */
export interface RootTarget {
  readonly model: Model;
  readonly action: 'find' | 'findOne';
}

export function translateRootField(context: TranslateContext, target: RootTarget, nodes: readonly FieldNode[]): RootQuery {
  const { model, action } = target;
  const field = fieldOf(context.schema.getQueryType()!, nodes[0]);
  const args = getArgumentValues(field, nodes[0], context.variables);
  const query = {
    ...(args.filters !== undefined ? { filters: restFilters(context.registry, model, args.filters) } : {}),
    ...(args.sort !== undefined ? { sort: args.sort } : {}),
    ...(args.locale !== undefined ? { locale: args.locale } : {}),
    ...(typeof args.publicationState === 'string' ? { publicationState: args.publicationState.toLowerCase() } : {}),
  };
  const id = action === 'findOne' ? entryId(args.id) : null;
  const tree = parseQuery(context.registry, { model, action, id, query }, context.limits);
  const wrapperType = getNamedType(field.type) as GraphQLObjectType;
  const { wrapper, row, selection } = wrapped(context, model, wrapperType, nodes);
  const single = model.kind === 'singleType';
  const window = action === 'find' && !single ? graphqlWindow(args.pagination, context.limits.defaultLimit, context.limits.maxLimit) : null;
  const root: RootQuery = {
    ...tree,
    selection,
    shape: { wrapper, row },
    ...(single ? { pagination: { mode: 'page', page: 1, pageSize: 1, withCount: false } } : {}),
    // No limit is every entry: the response budget still bounds what that costs.
    ...(window ? { pagination: { mode: 'offset', start: window.start, limit: window.limit ?? Number.MAX_SAFE_INTEGER, withCount: true } } : {}),
  };
  if (populateDepth(root.selection) > MAX_POPULATE_DEPTH) throw tooDeep(nodes[0].name.value);
  checkRelationHops(root, context.limits.maxRelationHops ?? DEFAULT_MAX_RELATION_HOPS);
  return root;
}

/**
 * The answer of a mutation on entry `id` (`ArticleEntityResponse`, its selection): the entry read
 * back by id. Authorized by the caller as a write's answer is (read.ts authorizeWritten).
 */
export function translateWrittenEntry(
  context: TranslateContext,
  model: Model,
  id: number,
  field: GraphQLField<unknown, unknown>,
  nodes: readonly FieldNode[],
  deleted = false,
): RootQuery {
  const tree = parseQuery(context.registry, { model, action: 'findOne', id, query: {} }, context.limits);
  const { wrapper, row, selection } = wrapped(context, model, getNamedType(field.type) as GraphQLObjectType, nodes);
  const root: RootQuery = { ...tree, selection: deleted ? asDeleted(selection) : selection, shape: { wrapper, row } };
  if (populateDepth(root.selection) > MAX_POPULATE_DEPTH) throw tooDeep(nodes[0].name.value);
  return root;
}

/** No row matches it (an empty `or`). */
const NOTHING: Filter = { kind: 'or', items: [] };

/**
 * A deleted entry as Strapi's plugin answers it: its scalars as they were, but its relations and
 * media read after the delete (none) and its components and zones gone (null).
 */
function asDeleted(selection: Selection): Selection {
  const populate = selection.populate.flatMap((node) => (node.kind === 'relation' || node.kind === 'media' ? [{ ...node, filters: NOTHING }] : []));
  return { ...selection, populate };
}

/** An `ID` argument: a positive integer in a string, else an id no entry has. */
export function entryId(raw: unknown): number {
  const text = String(raw ?? '');
  return /^\d{1,15}$/.test(text) ? Number(text) : 0;
}

function fieldOf(type: GraphQLObjectType, node: FieldNode): GraphQLField<unknown, unknown> {
  const field = type.getFields()[node.name.value];
  if (!field) throw new ValidationError(node.name.value, `Unknown field ${type.name}.${node.name.value}`);
  return field;
}

interface Wrapped {
  readonly wrapper: Shape;
  readonly row: Shape;
  readonly selection: Selection;
}

/**
 * A response type around entries (`ArticleEntityResponse`, `…ResponseCollection`,
 * `…RelationResponseCollection`): its `data` is the rows, its `meta` the pagination figures.
 */
export function wrapped(context: TranslateContext, model: Model, type: GraphQLObjectType, nodes: readonly FieldNode[]): Wrapped {
  let entity: { row: Shape; selection: Selection } = { row: [], selection: { fields: [], populate: [] } };
  let rowsSeen = false;
  const wrapper: ShapeKey[] = [];
  for (const [key, group] of collectFields(context, type.name, subSelections(nodes))) {
    const name = group[0].name.value;
    if (name === '__typename') wrapper.push({ key, kind: 'typename', name: type.name });
    else if (name === 'data') {
      if (rowsSeen) throw new ValidationError(key, 'Select `data` once per field: its aliases cannot differ');
      rowsSeen = true;
      entity = entityRow(context, model, getNamedType(fieldOf(type, group[0]).type) as GraphQLObjectType, group);
      wrapper.push({ key, kind: 'rows' });
    } else if (name === 'meta') wrapper.push({ key, kind: 'object', shape: metaShape(context, getNamedType(fieldOf(type, group[0]).type) as GraphQLObjectType, group) });
  }
  return { wrapper, row: entity.row, selection: entity.selection };
}

/** `ResponseCollectionMeta { pagination { total page pageSize pageCount } }`. */
function metaShape(context: TranslateContext, type: GraphQLObjectType, nodes: readonly FieldNode[]): Shape {
  const shape: ShapeKey[] = [];
  for (const [key, group] of collectFields(context, type.name, subSelections(nodes))) {
    const name = group[0].name.value;
    if (name === '__typename') shape.push({ key, kind: 'typename', name: type.name });
    else if (name === 'total' || name === 'page' || name === 'pageSize' || name === 'pageCount') shape.push({ key, kind: name });
    else shape.push({ key, kind: 'object', shape: metaShape(context, getNamedType(fieldOf(type, group[0]).type) as GraphQLObjectType, group) });
  }
  return shape;
}

/**
 * `ArticleEntity { id attributes { … } }`. Each alias of `attributes` has its own keys; their
 * populate nodes are told apart by the alias, and the rows load the union of what they ask.
 */
function entityRow(context: TranslateContext, model: Model, type: GraphQLObjectType, nodes: readonly FieldNode[]): { row: Shape; selection: Selection } {
  const row: ShapeKey[] = [];
  const fields = new Set<ScalarAttribute>();
  const populate: PopulateNode[] = [];
  const keys = collectFields(context, type.name, subSelections(nodes));
  for (const [key, group] of keys) {
    const name = group[0].name.value;
    if (name === 'id') row.push({ key, kind: 'id' });
    else if (name === '__typename') row.push({ key, kind: 'typename', name: type.name });
    else if (name === 'attributes') {
      const attributesType = getNamedType(fieldOf(type, group[0]).type) as GraphQLObjectType;
      const prefix = key === 'attributes' ? '' : `${key}.`;
      const attributes = attributesShape(context, model, attributesType, group, prefix);
      attributes.selection.fields.forEach((field) => fields.add(field));
      populate.push(...attributes.selection.populate);
      row.push({ key, kind: 'object', shape: attributes.shape });
    }
  }
  const ordered = [...model.attributes.values()].filter((attribute): attribute is ScalarAttribute => fields.has(attribute as ScalarAttribute));
  return { row, selection: { fields: ordered, populate } };
}

/**
 * The attributes of a content type (`Article`) or the fields of a component
 * (`ComponentSharedSeo`, with its `id`): scalars as fields, the rest as populate nodes.
 */
function attributesShape(
  context: TranslateContext,
  model: Model,
  type: GraphQLObjectType,
  nodes: readonly FieldNode[],
  refPrefix = '',
): { shape: Shape; selection: Selection } {
  const shape: ShapeKey[] = [];
  const fields = new Set<string>();
  const populate: PopulateNode[] = [];
  for (const [key, group] of collectFields(context, type.name, subSelections(nodes))) {
    const name = group[0].name.value;
    const attribute = model.attributes.get(name);
    if (name === '__typename') shape.push({ key, kind: 'typename', name: type.name });
    else if (name === 'id' && model.modelType === 'component') shape.push({ key, kind: 'id' });
    else if (attribute?.kind === 'scalar') {
      fields.add(name);
      shape.push({ key, kind: 'field', name });
    } else if (attribute && isPopulatable(attribute)) {
      const ref = `${refPrefix}${key}`;
      populate.push(populateNode(context, model, attribute, ref, fieldOf(type, group[0]), group));
      shape.push({ key, kind: 'populate', ref });
    } else {
      // A field the package holds no data for (a file's polymorphic `related`): its key answers null.
      shape.push(context.outsideField?.(context, model, key, fieldOf(type, group[0]), group) ?? { key, kind: 'field', name });
    }
  }
  const scalars = [...model.attributes.values()].filter((attribute): attribute is ScalarAttribute => attribute.kind === 'scalar' && fields.has(attribute.name));
  return { shape, selection: { fields: scalars, populate } };
}

/** The populate node of one response key, with the attribute's own arguments (to-many lists: filters, sort, pagination). */
function populateNode(
  context: TranslateContext,
  owner: Model,
  attribute: PopulatableAttribute,
  key: string,
  field: GraphQLField<unknown, unknown>,
  nodes: readonly FieldNode[],
): PopulateNode {
  if (attribute.kind === 'dynamiczone') return zoneNode(context, attribute, key, nodes);
  const args = getArgumentValues(field, nodes[0], context.variables);
  const target = context.registry.models.get(
    attribute.kind === 'relation' ? attribute.target : attribute.kind === 'media' ? context.registry.file.uid : attribute.component,
  )!;
  const toMany = attribute.kind === 'relation' ? attribute.toMany : attribute.kind === 'media' ? attribute.multiple : attribute.repeatable;
  const options: Record<string, unknown> = { fields: ['id'] };
  if (args.filters !== undefined) options.filters = restFilters(context.registry, target, args.filters);
  if (args.sort !== undefined) options.sort = args.sort;
  if (typeof args.publicationState === 'string') options.publicationState = args.publicationState.toLowerCase();
  if (toMany) {
    const window = graphqlWindow(args.pagination, context.limits.defaultLimit, context.limits.maxLimit);
    Object.assign(options, { start: window.start, limit: window.limit ?? -1 });
  }
  const [base] = parsePopulate(context.registry, owner, { [attribute.name]: options }, key);
  const type = getNamedType(field.type) as GraphQLObjectType;
  if (base.kind === 'component') {
    const { shape, selection } = attributesShape(context, target, type, nodes);
    return { ...base, ref: key, selection, shape: { wrapper: [], row: shape } };
  }
  const { wrapper, row, selection } = wrapped(context, target, type, nodes);
  return { ...(base as Exclude<PopulateNode, DynamicZoneNode>), ref: key, selection, shape: { wrapper, row } } as PopulateNode;
}

/** A dynamic zone: every component of the zone is a part, shaped by the fragments that apply to its type (`{}` when none does). */
function zoneNode(context: TranslateContext, attribute: DynamicZoneAttribute, key: string, nodes: readonly FieldNode[]): DynamicZoneNode {
  const parts = attribute.components.map((uid) => {
    const component = context.registry.models.get(uid)!;
    const type = context.schema.getType(context.componentTypeName(uid)) as GraphQLObjectType;
    const { shape, selection } = attributesShape(context, component, type, nodes);
    return { component, selection, filters: null, shape };
  });
  return { kind: 'dynamiczone', attribute, parts, window: null, count: false, ref: key };
}
