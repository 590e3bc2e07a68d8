/**
 * `ArticleInput`, the data of a create or update, as the plugin's input.ts makes it: every
 * writable attribute (not the timestamps; not `locale` nor `localizations` of a localized type,
 * which the i18n plugin disables), relations and media as ids, components as their own input
 * (`ComponentSharedSeoInput`, with an optional `id` for an update in place), dynamic zones as
 * lists of their input scalar. Nothing is required: Strapi validates the data itself.
 */
import { GraphQLInputObjectType } from 'graphql';
import { hasTarget, modelOf, shownAttributes, type SchemaBuild } from './build.js';
import type { SchemaAttribute, SchemaModel } from './models.js';
import { enumName, inputName, zoneName } from './names.js';
import { GRAPHQL_SCALAR_OF } from './scalars.js';

const TIMESTAMPS = new Set(['createdAt', 'updatedAt']);
const I18N_MANAGED = new Set(['locale', 'localizations']);

function isWritable(model: SchemaModel, attribute: SchemaAttribute): boolean {
  if (TIMESTAMPS.has(attribute.name) && attribute.kind === 'scalar' && attribute.implicit) return false;
  return !(model.localized && I18N_MANAGED.has(attribute.name));
}

function inputField(build: SchemaBuild, model: SchemaModel, attribute: SchemaAttribute): string | null {
  switch (attribute.kind) {
    case 'scalar':
      return attribute.type === 'enumeration' ? enumName(model, attribute.name) : GRAPHQL_SCALAR_OF[attribute.type];
    case 'media':
      return attribute.multiple ? '[ID]' : 'ID';
    case 'relation':
      if (!hasTarget(build, attribute.target)) return null;
      return attribute.toMany ? '[ID]' : 'ID';
    case 'component': {
      const name = inputName(modelOf(build, attribute.component));
      return attribute.repeatable ? `[${name}]` : name;
    }
    case 'dynamiczone':
      return `[${zoneName(model, attribute.name)}Input!]`;
    default:
      return null;
  }
}

export function addInput(build: SchemaBuild, model: SchemaModel): void {
  const fields = (): Record<string, string> => {
    const specs: Record<string, string> = model.modelType === 'component' ? { id: 'ID' } : {};
    for (const attribute of shownAttributes(model)) {
      const type = isWritable(model, attribute) ? inputField(build, model, attribute) : null;
      if (type) specs[attribute.name] = type;
    }
    return specs;
  };
  build.table.add(new GraphQLInputObjectType({ name: inputName(model), fields: () => build.table.inputFields(fields()) }));
}
