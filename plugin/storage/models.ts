/**
 * Objection models generated from a registry: one class per table of the layout — each content
 * type, component and the media file type, and each link, component join and morph table (those
 * are what writes go through). Each call builds a fresh class hierarchy, bound to its own knex
 * instance, so two model sets never share state. Part of the public API (`api.models`,
 * `buildModels`): a host app reads and writes its content with them.
 */
import type { Knex } from 'knex';
import type { Registry } from '../schema/registry.js';
import { describeLayout, type TableLayout } from './layout.js';
import { componentRelationName, componentUidsOf, joinRowRelationMappings, modelRelationMappings, type ModelClasses } from './model-relations.js';
import { ComponentJoinModel, TableModel } from './table-model.js';

/**
 * A generated model class whose rows carry the properties of `Row` (column names as keys):
 * `models.model<ArticleRow>('api::article.article').query()` is typed by `ArticleRow`.
 */
export type ModelClass<Row extends object = object> = typeof TableModel & (new () => TableModel & Row);

export interface ModelSet extends ModelClasses {
  /** The class of each content type, component and the file type, by uid. */
  readonly models: ReadonlyMap<string, typeof TableModel>;
  /** The class of every table of the layout, by table name. */
  readonly tables: ReadonlyMap<string, typeof TableModel>;
  /**
   * The class of each content type, component and the file type, by class name: `Article`,
   * `Category`, `User`, `File`, `SharedSeo` (a component's category and name).
   */
  readonly named: Readonly<Record<string, typeof TableModel>>;
  /** The class of a content type, component or the file type by uid, its rows typed as `Row`. */
  model<Row extends object = object>(uid: string): ModelClass<Row>;
}

/** Where the generated models read and write. */
export interface BuildModelsOptions {
  /**
   * The database the models read and write. Without it the classes only describe the mapping
   * (table names, relation mappings); running a query needs it, as values are converted per client.
   */
  knex?: Knex;
}

/** `articles_category_links` → `ArticlesCategoryLinks` */
function pascalCase(text: string): string {
  return text.replace(/(?:^|[^A-Za-z0-9]+)([A-Za-z0-9])/g, (_match, letter: string) => letter.toUpperCase());
}

/**
 * A model's own table is named after the model (`api::article.article` → `Article`,
 * `plugin::upload.file` → `File`, `shared.seo` → `SharedSeo`); other tables after the table.
 */
function className(table: TableLayout): string {
  if (!table.uid) return pascalCase(table.name);
  const name = table.uid.includes('::') ? table.uid.slice(table.uid.lastIndexOf('.') + 1) : table.uid;
  return pascalCase(name);
}

function defineTableClass(table: TableLayout, base: typeof TableModel): typeof TableModel {
  const name = className(table);
  const defined = { [name]: class extends base {} }[name];
  defined.tableName = table.name;
  defined.columnTypes = new Map(table.columns.map((column) => [column.name, column.type]));
  defined.uid = table.uid;
  return defined;
}

function lookup<T>(map: ReadonlyMap<string, T>, key: string, what: string): T {
  const found = map.get(key);
  if (!found) throw new Error(`no model for ${what} ${key}`);
  return found;
}

/** Relation names are attribute names; a column of the same name would be shadowed by the relation. */
function assertNoClash(modelClass: typeof TableModel, relationNames: string[]): void {
  const clash = relationNames.find((name) => modelClass.columnTypes.has(name));
  if (clash) throw new Error(`${modelClass.tableName}: relation ${clash} has the name of a column`);
}

/**
 * Generate the models of every table of the registry's layout, with their relation mappings,
 * bound to `knex` (or `{ knex }`) when given.
 */
export function buildModels(registry: Registry, database: Knex | BuildModelsOptions = {}): ModelSet {
  const knex = isKnex(database) ? database : database.knex;
  // Bases of this set only: binding knex to them binds every class of the set and nothing else.
  class SetModel extends TableModel {}
  class SetJoinModel extends ComponentJoinModel {}
  if (knex) {
    SetModel.knex(knex);
    SetJoinModel.knex(knex);
  }
  const tables = new Map<string, typeof TableModel>();
  const models = new Map<string, typeof TableModel>();
  for (const table of describeLayout(registry).tables) {
    const defined = defineTableClass(table, table.role === 'componentJoin' ? SetJoinModel : SetModel);
    tables.set(table.name, defined);
    if (table.uid) models.set(table.uid, defined);
  }
  const classes = {
    model: <Row extends object = object>(uid: string) => lookup(models, uid, 'model') as ModelClass<Row>,
    table: (name: string) => lookup(tables, name, 'table'),
  };
  for (const model of registry.models.values()) {
    const modelClass = classes.model(model.uid);
    modelClass.relationMappings = modelRelationMappings(model, registry, classes);
    assertNoClash(modelClass, Object.keys(modelClass.relationMappings));
    if (!model.componentJoinTable) continue;
    const joinModel = classes.table(model.componentJoinTable) as typeof ComponentJoinModel;
    joinModel.componentRelations = new Map(componentUidsOf(model).map((uid) => [uid, componentRelationName(uid)]));
    joinModel.relationMappings = joinRowRelationMappings(model, joinModel, classes);
    assertNoClash(joinModel, Object.keys(joinModel.relationMappings));
  }
  const named = Object.fromEntries([...models.values()].map((modelClass) => [modelClass.name, modelClass]));
  return { models, tables, named, ...classes };
}

/** A knex instance is a function; the options object is not. */
function isKnex(database: Knex | BuildModelsOptions): database is Knex {
  return typeof database === 'function';
}
