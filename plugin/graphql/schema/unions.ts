/**
 * Enumerations, dynamic zones and the generic morph union, as the plugin's enums.ts,
 * dynamic-zones.ts and generic-morph.ts make them:
 *   `enum ENUM_ARTICLE_KIND { news review … }` (values as GraphQL names, the stored text as value);
 *   `union ArticleBlocksDynamicZone = ComponentSharedQuote | … | Error`, written through the
 *   scalar `ArticleBlocksDynamicZoneInput` (items keyed by `__typename`);
 *   `union GenericMorph` of every content type's and component's type (the file's `related`).
 */
import { GraphQLEnumType, GraphQLScalarType, GraphQLUnionType, isObjectType, Kind, valueFromASTUntyped, type GraphQLObjectType } from 'graphql';
import { modelOf, shownAttributes, type SchemaBuild } from './build.js';
import type { SchemaModel } from './models.js';
import { baseName, componentName, enumName, enumValueName, zoneName } from './names.js';

/** The enum type of every enumeration attribute the model shows. */
export function addEnums(build: SchemaBuild, model: SchemaModel): void {
  for (const attribute of shownAttributes(model)) {
    if (attribute.kind !== 'scalar' || attribute.type !== 'enumeration') continue;
    const values: Record<string, { value: string }> = {};
    for (const value of attribute.enum ?? []) values[enumValue(model, attribute.name, value)] = { value };
    build.table.add(new GraphQLEnumType({ name: enumName(model, attribute.name), values }));
  }
}

/** A value's GraphQL name; a name GraphQL refuses (`10_items`) makes a schema Strapi cannot serve either. */
function enumValue(model: SchemaModel, attribute: string, value: string): string {
  const name = enumValueName(value);
  if (/^[_A-Za-z][_A-Za-z0-9]*$/.test(name) && !['true', 'false', 'null'].includes(name)) return name;
  throw new Error(`${model.uid}.${attribute}: the enumeration value "${value}" is "${name}" in GraphQL, which is not a valid GraphQL enum value (Strapi's GraphQL plugin fails on it too)`);
}

/** The union and input scalar of every dynamic zone of the model. */
export function addZones(build: SchemaBuild, model: SchemaModel): void {
  const { table } = build;
  for (const attribute of shownAttributes(model)) {
    if (attribute.kind !== 'dynamiczone') continue;
    const name = zoneName(model, attribute.name);
    const members = [...attribute.components.map((uid) => componentName(modelOf(build, uid))), 'Error'];
    table.add(new GraphQLUnionType({ name, types: () => members.map((member) => objectType(build, member)) }));
    table.add(zoneInput(build, `${name}Input`, attribute.components));
    build.targets.types.set(name, { kind: 'zone', uid: model.uid, attribute: attribute.name });
  }
}

/**
 * A zone's input scalar, as the plugin's: an item names its component by `__typename` (any
 * component's type, as there) and is read as the REST body's `{ __component, … }`; an item naming
 * none is refused when the operation is validated, listing the zone's components.
 */
function zoneInput(build: SchemaBuild, name: string, components: readonly string[]): GraphQLScalarType {
  const byTypeName = new Map(build.models.filter((model) => model.modelType === 'component').map((model) => [componentName(model), model.uid]));
  const expected = components.map((uid) => componentName(modelOf(build, uid))).join(', ');
  const item = (value: unknown) => {
    const { __typename: typeName, ...rest } = (value ?? {}) as Record<string, unknown>;
    const uid = typeof typeName === 'string' ? byTypeName.get(typeName) : undefined;
    // A plain error: graphql-js words it "Expected value of type …; Component not found…", as Strapi's.
    if (!uid) throw new Error(`Component not found. expected one of: ${expected}`);
    return { __component: uid, ...rest };
  };
  return new GraphQLScalarType({
    name,
    serialize: (value) => value,
    parseValue: item,
    parseLiteral: (node, variables) => (node.kind === Kind.OBJECT ? item(valueFromASTUntyped(node, variables)) : undefined),
  });
}

/** `GenericMorph`: every model's attributes type. */
export function addGenericMorph(build: SchemaBuild): void {
  const members = build.models.map(baseName);
  build.table.add(new GraphQLUnionType({ name: 'GenericMorph', types: () => members.map((member) => objectType(build, member)) }));
}

function objectType(build: SchemaBuild, name: string): GraphQLObjectType {
  const type = build.table.named(name);
  if (!isObjectType(type)) throw new Error(`${name} is not an object type`);
  return type;
}
