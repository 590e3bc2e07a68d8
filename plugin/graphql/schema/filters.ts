/**
 * `ArticleFiltersInput`, as the plugin's filters/content-type.ts makes it: `id` on collection
 * types, a scalar filter input per scalar attribute (an enumeration filters as a String), the
 * target's filters input per relation and per component, and `and`, `or`, `not`. Media, dynamic
 * zones and the file's `related` cannot be filtered on.
 */
import { GraphQLInputObjectType } from 'graphql';
import { hasTarget, modelOf, shownAttributes, type SchemaBuild } from './build.js';
import type { SchemaAttribute, SchemaModel } from './models.js';
import { filtersInputName, scalarFilterInputName } from './names.js';
import { GRAPHQL_SCALAR_OF } from './scalars.js';

function filterField(build: SchemaBuild, attribute: SchemaAttribute): string | null {
  switch (attribute.kind) {
    case 'scalar':
      return scalarFilterInputName(GRAPHQL_SCALAR_OF[attribute.type]);
    case 'relation':
      return hasTarget(build, attribute.target) ? filtersInputName(modelOf(build, attribute.target)) : null;
    case 'component':
      return filtersInputName(modelOf(build, attribute.component));
    default:
      return null;
  }
}

export function addFiltersInput(build: SchemaBuild, model: SchemaModel): void {
  const name = filtersInputName(model);
  const fields = (): Record<string, string> => {
    const specs: Record<string, string> = model.kind === 'collectionType' ? { id: scalarFilterInputName('ID') } : {};
    for (const attribute of shownAttributes(model)) {
      const type = filterField(build, attribute);
      if (type) specs[attribute.name] = type;
    }
    return { ...specs, and: `[${name}]`, or: `[${name}]`, not: name };
  };
  build.table.add(new GraphQLInputObjectType({ name, fields: () => build.table.inputFields(fields()) }));
}
