/**
 * Objection `relationMappings` for the Strapi v4 layout. Every relation goes through a table of
 * its own: relations through their link table (a mappedBy side reads its owner's link table
 * reversed), components through `<table>_components` filtered by `field` and `component_type`,
 * media through `files_related_morphs` filtered by `related_type` (the owner's uid) and `field`.
 * To-many relations come back in the order of their order column, as Strapi arranges them.
 */
import { Model, type QueryBuilder, type RelationMapping, type RelationMappings } from 'objection';
import {
  FILE_UID,
  MORPH_TABLE,
  modelOf,
  type ComponentAttribute,
  type LinkTable,
  type MediaAttribute,
  type Model as SchemaModel,
  type Registry,
  type RelationAttribute,
} from '../schema/registry.js';
import type { ComponentJoinModel, TableModel } from './table-model.js';
import { componentOfRowRelation } from './component-of-row.js';

/** The generated classes, looked up by uid (a model's own table) or by table name. */
export interface ModelClasses {
  model(uid: string): typeof TableModel;
  table(name: string): typeof TableModel;
}

type Mapping = RelationMapping<TableModel>;

/**
 * Orders the related rows by a column of the table the relation goes through, then by that
 * table's id. Only when the query joins that table: a `withGraphJoined` subquery does not.
 */
function orderThrough(through: typeof TableModel, column: string | null) {
  return (builder: QueryBuilder<Model>) => {
    if (!column || !builder.has('join')) return;
    const table = builder.tableRefFor(through);
    builder.orderBy(`${table}.${column}`).orderBy(`${table}.id`);
  };
}

/** The link table of a relation's owning side, read from whichever side `attribute` is. */
function linkTableOf(registry: Registry, attribute: RelationAttribute): LinkTable {
  if (attribute.linkTable) return attribute.linkTable;
  const owner = modelOf(registry, attribute.target).attributes.get(attribute.mappedBy as string);
  if (owner?.kind !== 'relation' || !owner.linkTable) throw new Error(`${attribute.target}.${attribute.mappedBy} owns no link table`);
  return owner.linkTable;
}

function relationMapping(owner: SchemaModel, attribute: RelationAttribute, registry: Registry, classes: ModelClasses): Mapping {
  const { link } = attribute;
  const target = classes.model(attribute.target);
  const linkModel = classes.table(link.table);
  const linkTable = linkTableOf(registry, attribute);
  return {
    relation: attribute.toMany ? Model.ManyToManyRelation : Model.HasOneThroughRelation,
    modelClass: target,
    join: {
      from: `${owner.tableName}.id`,
      through: {
        modelClass: linkModel,
        from: `${link.table}.${link.sourceColumn}`,
        to: `${link.table}.${link.targetColumn}`,
        extra: [linkTable.orderColumn, linkTable.inverseOrderColumn].filter((column): column is string => column !== null),
      },
      to: `${target.tableName}.id`,
    },
    modify: orderThrough(linkModel, link.orderColumn),
  };
}

/**
 * Media and components share one shape: the owner reaches its targets through a shared table
 * (`files_related_morphs`, `<table>_components`) whose rows are told apart by a filter
 * (owner uid and field, or field and component uid), ordered by the table's `order`.
 */
function filteredThroughMapping(
  owner: SchemaModel,
  many: boolean,
  target: typeof TableModel,
  through: { table: string; model: typeof TableModel; ownerColumn: string; targetColumn: string },
  filter: Record<string, string>,
): Mapping {
  return {
    relation: many ? Model.ManyToManyRelation : Model.HasOneThroughRelation,
    modelClass: target,
    join: {
      from: `${owner.tableName}.id`,
      through: {
        modelClass: through.model,
        from: `${through.table}.${through.ownerColumn}`,
        to: `${through.table}.${through.targetColumn}`,
        extra: ['order'],
        modify: (builder: QueryBuilder<Model>) => builder.where(filter),
        beforeInsert: (row: Model) => void Object.assign(row, filter),
      },
      to: `${target.tableName}.id`,
    },
    modify: orderThrough(through.model, 'order'),
  };
}

function mediaMapping(owner: SchemaModel, attribute: MediaAttribute, classes: ModelClasses): Mapping {
  const through = { table: MORPH_TABLE, model: classes.table(MORPH_TABLE), ownerColumn: 'related_id', targetColumn: 'file_id' };
  return filteredThroughMapping(owner, attribute.multiple, classes.model(FILE_UID), through, { related_type: owner.uid, field: attribute.name });
}

function componentMapping(owner: SchemaModel, attribute: ComponentAttribute, classes: ModelClasses): Mapping {
  const table = owner.componentJoinTable as string;
  const through = { table, model: classes.table(table), ownerColumn: 'entity_id', targetColumn: 'component_id' };
  const filter = { field: attribute.name, component_type: attribute.component };
  return filteredThroughMapping(owner, attribute.repeatable, classes.model(attribute.component), through, filter);
}

/**
 * A dynamic zone: the owner's join rows of that field, in zone order, each with its component
 * under the relation of its type (`sharedQuote`…), fetched with the rows (one query per component
 * type present), so `withGraphFetched('blocks')` gives the zone's content. Rows inserted through
 * the zone get its `field`, and the `component_type` of the component relation they carry.
 */
function zoneMapping(owner: SchemaModel, name: string, classes: ModelClasses): Mapping {
  const joinTable = owner.componentJoinTable as string;
  const joinModel = classes.table(joinTable) as typeof ComponentJoinModel;
  return {
    relation: Model.HasManyRelation,
    modelClass: joinModel,
    join: { from: `${owner.tableName}.id`, to: `${joinTable}.entity_id` },
    modify: (builder: QueryBuilder<Model>) => {
      const table = builder.tableRefFor(joinModel);
      builder.where(`${table}.field`, name).orderBy(`${table}.order`).orderBy(`${table}.id`);
      builder.runAfter(async (rows: unknown, query: QueryBuilder<Model>) => {
        if (Array.isArray(rows)) await attachComponents(rows as ComponentJoinModel[], joinModel, classes, query);
        return rows;
      });
    },
    beforeInsert: (row: Model) => {
      const joinRow = row as ComponentJoinModel;
      joinRow.field = name;
      if (joinRow.component_type === undefined) {
        const carried = [...joinModel.componentRelations].find(([, relation]) => joinRow[relation] !== undefined);
        if (carried) joinRow.component_type = carried[0];
      }
    },
  };
}

/**
 * Fetches the component of each join row, one query per component type, and sets it under its
 * relation name; rows whose component a nested graph (`blocks.sharedQuote.category`) already
 * fetched keep it.
 */
async function attachComponents(rows: readonly ComponentJoinModel[], joinModel: typeof ComponentJoinModel, classes: ModelClasses, query: QueryBuilder<Model>): Promise<void> {
  const idsByType = new Map<string, number[]>();
  for (const row of rows) {
    const uid = row.component_type as string;
    const relation = joinModel.componentRelations.get(uid);
    if (!relation || row[relation] !== undefined) continue;
    idsByType.set(uid, [...(idsByType.get(uid) ?? []), Number(row.component_id)]);
  }
  for (const [uid, ids] of idsByType) {
    const components = await classes.model(uid).query(query.knex()).findByIds(ids);
    const byId = new Map(components.map((component) => [component.id, component]));
    const relation = joinModel.componentRelations.get(uid) as string;
    for (const row of rows) if (row.component_type === uid && row[relation] === undefined) row[relation] = byId.get(Number(row.component_id)) ?? null;
  }
}

/** The relations of a model's own table, named after its attributes. */
export function modelRelationMappings(owner: SchemaModel, registry: Registry, classes: ModelClasses): RelationMappings {
  const mappings: RelationMappings = {};
  for (const attribute of owner.attributes.values()) {
    if (attribute.kind === 'relation') mappings[attribute.name] = relationMapping(owner, attribute, registry, classes);
    else if (attribute.kind === 'media') mappings[attribute.name] = mediaMapping(owner, attribute, classes);
    else if (attribute.kind === 'component') mappings[attribute.name] = componentMapping(owner, attribute, classes);
    else if (attribute.kind === 'dynamiczone') mappings[attribute.name] = zoneMapping(owner, attribute.name, classes);
  }
  return mappings;
}

/** `shared.rich-text` → `sharedRichText` */
export function componentRelationName(uid: string): string {
  return uid.replace(/[^A-Za-z0-9]+([A-Za-z0-9])/g, (_match, letter: string) => letter.toUpperCase());
}

/** The component uids an owner's join table can point at. */
export function componentUidsOf(owner: SchemaModel): string[] {
  const uids = new Set<string>();
  for (const attribute of owner.attributes.values()) {
    if (attribute.kind === 'component') uids.add(attribute.component);
    else if (attribute.kind === 'dynamiczone') attribute.components.forEach((uid) => uids.add(uid));
  }
  return [...uids];
}

/**
 * The relations of a join-table row: one per component uid, from `component_id` to the component's
 * table, reaching a component only from rows of its own `component_type` (component-of-row.ts):
 * that is how dynamic zones are read and written.
 */
export function joinRowRelationMappings(owner: SchemaModel, joinModel: typeof ComponentJoinModel, classes: ModelClasses): RelationMappings {
  const joinTable = joinModel.tableName;
  const mappings: RelationMappings = {};
  for (const uid of componentUidsOf(owner)) {
    const component = classes.model(uid);
    mappings[componentRelationName(uid)] = {
      relation: componentOfRowRelation(uid),
      modelClass: component,
      join: { from: `${joinTable}.component_id`, to: `${component.tableName}.id` },
    };
  }
  return mappings;
}
