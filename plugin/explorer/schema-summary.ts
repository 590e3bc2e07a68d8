/**
 * What the explorer page needs to build queries for one role: per type its route, the fields it
 * may select, filter and sort on, and where each populatable attribute leads, restricted to what
 * the role may read (the same rule as the OpenAPI document).
 */
import type { Grants } from '../access/permissions.js';
import { modelTypeNames } from '../codegen/names.js';
import { reachable, type SchemaScope } from '../openapi/names.js';
import { selectableFields } from '../openapi/query-schemas.js';
import { targetOf } from '../query/resolve-attribute.js';
import type { Registry } from '../schema/registry.js';

export interface ExplorerPopulate {
  readonly kind: 'relation' | 'media' | 'component' | 'dynamiczone';
  /** The uid of the rows it leads to; for a zone, each component's. */
  readonly targets: readonly string[];
  readonly toMany: boolean;
}

export interface ExplorerType {
  readonly displayName: string;
  /** `articles` for `/api/articles` (`upload/files` for files); null for components and types without a list route for the role. */
  readonly route: string | null;
  readonly fields: readonly string[];
  readonly populate: Readonly<Record<string, ExplorerPopulate>>;
}

/** `/api/upload/files`: a bare list of files (no envelope, `pagination` honoured). */
export const FILE_LIST_ROUTE = 'upload/files';

/** `uploadRoutes`: whether the API serves the media library's routes (not with `upload: false`). */
export function explorerSchema(registry: Registry, grants: Grants, uploadRoutes = true): Record<string, ExplorerType> {
  const scope: SchemaScope = { registry, grants, names: modelTypeNames(registry, new Set()) };
  const routes = new Map([...registry.routes].map(([route, model]) => [model.uid, route]));
  const types: Record<string, ExplorerType> = {};
  for (const model of registry.models.values()) {
    const populate: Record<string, ExplorerPopulate> = {};
    for (const attribute of model.attributes.values()) {
      if (!reachable(scope, attribute)) continue;
      if (attribute.kind === 'dynamiczone') populate[attribute.name] = { kind: 'dynamiczone', targets: attribute.components, toMany: true };
      else if (attribute.kind === 'relation' || attribute.kind === 'media' || attribute.kind === 'component') {
        const toMany = attribute.kind === 'relation' ? attribute.toMany : attribute.kind === 'media' ? attribute.multiple : attribute.repeatable;
        populate[attribute.name] = { kind: attribute.kind, targets: [targetOf(attribute, registry).uid], toMany };
      }
    }
    const listed = model.modelType === 'contentType' && grants.can(model.uid, 'find');
    // Files are listed by the media library's route, when the role may list them.
    const route = model.uid === registry.file.uid ? (uploadRoutes ? FILE_LIST_ROUTE : null) : (routes.get(model.uid) ?? null);
    types[model.uid] = { displayName: model.displayName, route: listed ? route : null, fields: selectableFields(model), populate };
  }
  return types;
}
