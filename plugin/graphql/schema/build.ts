/**
 * What every part of the schema reads while it is built: the type table, the models, and the
 * recorder of what each type and root field stands for.
 */
import type { SchemaAttribute, SchemaModel } from './models.js';
import type { TargetRecorder } from './targets.js';
import type { TypeTable } from './type-table.js';

export interface SchemaBuild {
  readonly table: TypeTable;
  readonly models: readonly SchemaModel[];
  readonly byUid: ReadonlyMap<string, SchemaModel>;
  readonly targets: TargetRecorder;
}

export function modelOf(build: SchemaBuild, uid: string): SchemaModel {
  const model = build.byUid.get(uid);
  if (!model) throw new Error(`the GraphQL schema has no model ${uid}`);
  return model;
}

/**
 * The attributes the schema shows: private and password attributes are left out everywhere
 * (docs/graphql.md), and so are the internal ones (`createdBy`, `updatedBy`, the file's folder),
 * which are hidden too.
 */
export function shownAttributes(model: SchemaModel): SchemaAttribute[] {
  return [...model.attributes.values()].filter((attribute) => !attribute.hidden);
}

/** A content type's relations to a type the schema has no model for are left out, as Strapi leaves out disabled targets. */
export function hasTarget(build: SchemaBuild, uid: string): boolean {
  return build.byUid.has(uid);
}

export const isContentType = (model: SchemaModel): boolean => model.modelType === 'contentType';
