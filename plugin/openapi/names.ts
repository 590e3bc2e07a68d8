/**
 * What a role can reach, and the names of the schemas: shared by the response schemas and the
 * query-parameter schemas of the OpenAPI document.
 */
import type { Grants } from '../access/permissions.js';
import type { Attribute, Model, Registry } from '../schema/registry.js';
import { FILE_UID } from '../schema/registry.js';
import { targetOf } from '../query/resolve-attribute.js';

export interface SchemaScope {
  readonly registry: Registry;
  readonly grants: Grants;
  /** uid → schema name, from modelTypeNames. */
  readonly names: ReadonlyMap<string, string>;
}

/** A JSON Schema (2020-12, as OpenAPI 3.1 uses it). */
export type JsonSchema = Record<string, unknown>;

/** The schema name of a model (its generated type name). */
export function schemaName(scope: SchemaScope, model: Model): string {
  return scope.names.get(model.uid)!;
}

export function ref(name: string): JsonSchema {
  return { $ref: `#/components/schemas/${name}` };
}

/**
 * Whether the role may follow `attribute` to its rows: relations and media need `find` on their
 * target (otherwise the API prunes them from populate and refuses them in filters and sort);
 * components are part of their owner.
 */
export function reachable(scope: SchemaScope, attribute: Attribute): boolean {
  if (attribute.hidden) return false;
  if (attribute.kind === 'relation') return scope.grants.can(attribute.target, 'find');
  if (attribute.kind === 'media') return scope.grants.can(FILE_UID, 'find');
  return attribute.kind === 'component' || attribute.kind === 'dynamiczone';
}

/** The models whose schemas the document needs: the routes' types and everything reachable from them. */
export function reachableModels(scope: SchemaScope, roots: readonly Model[]): Model[] {
  const seen = new Map<string, Model>();
  const visit = (model: Model): void => {
    if (seen.has(model.uid)) return;
    seen.set(model.uid, model);
    for (const attribute of model.attributes.values()) {
      if (!reachable(scope, attribute)) continue;
      if (attribute.kind === 'dynamiczone') {
        for (const uid of attribute.components) visit(scope.registry.models.get(uid)!);
      } else if (attribute.kind === 'relation' || attribute.kind === 'media' || attribute.kind === 'component') {
        visit(targetOf(attribute, scope.registry));
      }
    }
  };
  roots.forEach(visit);
  return [...seen.values()];
}

/** A `blocks` attribute's value: the blocks editor's nodes, each an object with its `type`. */
export const BLOCKS_SCHEMA: JsonSchema = {
  type: 'array',
  items: { type: 'object', required: ['type'], properties: { type: { enum: ['paragraph', 'heading', 'quote', 'list', 'code', 'image'] } } },
};
