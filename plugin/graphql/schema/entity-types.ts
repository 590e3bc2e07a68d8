/**
 * The output types of a model, as the plugin's builders (type.ts, entity.ts, response*.ts) make
 * them: `Article { title: String!, category: CategoryEntityResponse, … }`,
 * `ArticleEntity { id, attributes }`, `ArticleEntityResponse { data }`,
 * `ArticleEntityResponseCollection { data, meta }`, `ArticleRelationResponseCollection { data }`;
 * a component is one type, `ComponentSharedSeo { id: ID!, … }`.
 */
import { GraphQLObjectType } from 'graphql';
import { hasTarget, modelOf, shownAttributes, type SchemaBuild } from './build.js';
import type { SchemaAttribute, SchemaModel } from './models.js';
import { FILE_UID } from '../../schema/registry.js';
import {
  baseName,
  componentName,
  entityName,
  entityResponseCollectionName,
  entityResponseName,
  enumName,
  filtersInputName,
  relationResponseCollectionName,
  typeName,
  zoneName,
} from './names.js';
import { GRAPHQL_SCALAR_OF, listArguments, publicationStateArgument } from './scalars.js';
import type { FieldSpec } from './type-table.js';

const required = (type: string, attribute: { required: boolean }): string => (attribute.required ? `${type}!` : type);

/**
 * The arguments of a to-many field whose items are entries (or components) of `target`: a list's
 * (the plugin's getContentTypeArgs), but only `publicationState` for a single type's.
 */
function manyArguments(target: SchemaModel): FieldSpec['args'] {
  const draftAndPublish = target.modelType === 'contentType' && target.draftAndPublish;
  if (target.kind === 'singleType') return draftAndPublish ? { publicationState: publicationStateArgument() } : {};
  return listArguments(filtersInputName(target), draftAndPublish);
}

/** The field an attribute is in its model's type; null where Strapi shows none. */
function attributeField(build: SchemaBuild, model: SchemaModel, attribute: SchemaAttribute): FieldSpec | null {
  switch (attribute.kind) {
    case 'scalar': {
      const type = attribute.type === 'enumeration' ? enumName(model, attribute.name) : GRAPHQL_SCALAR_OF[attribute.type];
      return { type: required(type, attribute) };
    }
    case 'component': {
      const component = modelOf(build, attribute.component);
      const name = componentName(component);
      if (!attribute.repeatable) return { type: required(name, attribute) };
      return { type: required(`[${name}]`, attribute), args: manyArguments(component) };
    }
    case 'dynamiczone':
      return { type: required(`[${zoneName(model, attribute.name)}]`, attribute) };
    case 'media': {
      const file = modelOf(build, FILE_UID);
      if (!attribute.multiple) return { type: required(entityResponseName(file), attribute) };
      return { type: required(relationResponseCollectionName(file), attribute), args: manyArguments(file) };
    }
    case 'relation': {
      if (!hasTarget(build, attribute.target)) return null;
      const target = modelOf(build, attribute.target);
      if (!attribute.toMany) return { type: required(entityResponseName(target), attribute) };
      return { type: required(relationResponseCollectionName(target), attribute), args: manyArguments(target) };
    }
    case 'morph':
      return { type: '[GenericMorph]' };
    default:
      return null;
  }
}

function attributesType(build: SchemaBuild, model: SchemaModel): GraphQLObjectType {
  const fields = (): Record<string, FieldSpec> => {
    const specs: Record<string, FieldSpec> = model.modelType === 'component' ? { id: { type: 'ID!' } } : {};
    for (const attribute of shownAttributes(model)) {
      const spec = attributeField(build, model, attribute);
      if (spec) specs[attribute.name] = spec;
    }
    return specs;
  };
  return new GraphQLObjectType({ name: baseName(model), fields: () => build.table.fields(fields()) });
}

/** The types of a component: its attributes type, named by its global id. */
export function addComponentTypes(build: SchemaBuild, component: SchemaModel): void {
  build.table.add(attributesType(build, component));
  build.targets.types.set(componentName(component), { kind: 'component', uid: component.uid });
}

/** The five output types of a content type. */
export function addContentTypeTypes(build: SchemaBuild, model: SchemaModel): void {
  const { table, targets } = build;
  const entity = entityName(model);
  const add = (type: GraphQLObjectType, kind: 'attributes' | 'entity' | 'entityResponse' | 'entityResponseCollection' | 'relationResponseCollection') => {
    table.add(type);
    targets.types.set(type.name, { kind, uid: model.uid });
  };
  add(attributesType(build, model), 'attributes');
  add(new GraphQLObjectType({ name: entity, fields: () => table.fields({ id: 'ID', attributes: typeName(model) }) }), 'entity');
  add(new GraphQLObjectType({ name: entityResponseName(model), fields: () => table.fields({ data: entity }) }), 'entityResponse');
  add(
    new GraphQLObjectType({ name: entityResponseCollectionName(model), fields: () => table.fields({ data: `[${entity}!]!`, meta: 'ResponseCollectionMeta!' }) }),
    'entityResponseCollection',
  );
  add(new GraphQLObjectType({ name: relationResponseCollectionName(model), fields: () => table.fields({ data: `[${entity}!]!` }) }), 'relationResponseCollection');
}
