/**
 * The GraphQL schema @strapi/plugin-graphql 4.26.2 generates for the registry's models, as a
 * pure function of the registry: the same registry gives the same schema, type for type. Types
 * no root field reaches are left out as Strapi's pruneSchema leaves them out (enumerations are
 * kept, as there). Where the schema departs from Strapi's on purpose, docs/graphql.md says so.
 */
import { GraphQLObjectType, GraphQLSchema, isEnumType, lexicographicSortSchema, printSchema, validateSchema } from 'graphql';
import type { Registry } from '../../schema/registry.js';
import type { SchemaBuild } from './build.js';
import { addComponentTypes, addContentTypeTypes } from './entity-types.js';
import { addFiltersInput } from './filters.js';
import { addInput } from './inputs.js';
import { schemaModels } from './models.js';
import { contentTypeMutations, contentTypeQueries, type RootFields } from './operations.js';
import { addPluginTypes, pluginMutations, pluginQueries } from './plugin-operations.js';
import { addBuiltInTypes } from './scalars.js';
import { newTargetRecorder, type GraphQLTargets, type OperationTarget } from './targets.js';
import { TypeTable } from './type-table.js';
import { addEnums, addGenericMorph, addZones } from './unions.js';

export interface GraphQLSchemaOptions {
  /**
   * Strapi's `shadowCRUD` setting: false generates no type for any model (the schema is then
   * Nexus's placeholder `Query { ok: Boolean! }`, as Strapi serves it). Default true.
   */
  readonly shadowCRUD?: boolean;
}

export interface GeneratedGraphQL {
  readonly schema: GraphQLSchema;
  readonly targets: GraphQLTargets;
}

/** The schema Strapi generates for `registry`. */
export function graphqlSchemaFor(registry: Registry, options: GraphQLSchemaOptions = {}): GraphQLSchema {
  return generateGraphQL(registry, options).schema;
}

/** The schema as SDL, its types and fields in lexicographic order (as the recordings compare it). */
export function graphqlSdlFor(registry: Registry, options: GraphQLSchemaOptions = {}): string {
  return `${printSchema(lexicographicSortSchema(graphqlSchemaFor(registry, options)))}\n`;
}

/** The schema and what its types and root fields stand for. */
export function generateGraphQL(registry: Registry, options: GraphQLSchemaOptions = {}): GeneratedGraphQL {
  if (options.shadowCRUD === false) return placeholderSchema();
  const models = schemaModels(registry);
  const build: SchemaBuild = { table: new TypeTable(), models, byUid: new Map(models.map((model) => [model.uid, model])), targets: newTargetRecorder() };
  addBuiltInTypes(build.table);
  addPluginTypes(build);
  for (const model of models) {
    addEnums(build, model);
    addZones(build, model);
    addFiltersInput(build, model);
    addInput(build, model);
    if (model.modelType === 'component') addComponentTypes(build, model);
    else addContentTypeTypes(build, model);
  }
  addGenericMorph(build);
  const query = rootType(build, 'Query', joined(contentTypeQueries(build), pluginQueries()), build.targets.queries);
  const mutation = rootType(build, 'Mutation', joined(contentTypeMutations(build), pluginMutations()), build.targets.mutations);
  // Every attribute's enum is declared, used or not, as Strapi's are; PublicationState only when an
  // argument uses it (no draft-and-publish type: Strapi's schema has none).
  const schema = valid(new GraphQLSchema({ query, mutation, types: build.table.all().filter((type) => isEnumType(type) && type.name !== 'PublicationState') }));
  return { schema, targets: keptTargets(build, schema) };
}

function joined(first: RootFields, second: RootFields): RootFields {
  for (const name of second.keys()) if (first.has(name)) throw new Error(`two GraphQL root fields would be named ${name}`);
  return new Map([...first, ...second]);
}

function rootType(build: SchemaBuild, name: string, fields: RootFields, targets: Map<string, OperationTarget>): GraphQLObjectType {
  for (const [field, { uid, action, single }] of fields) targets.set(field, { uid, action, single });
  const specs = Object.fromEntries([...fields].map(([field, { spec }]) => [field, spec]));
  return build.table.add(new GraphQLObjectType({ name, fields: () => build.table.fields(specs) }));
}

function valid(schema: GraphQLSchema): GraphQLSchema {
  const errors = validateSchema(schema);
  if (errors.length) throw new Error(`the GraphQL schema is not valid: ${errors.map((error) => error.message).join('; ')}`);
  return schema;
}

/** The targets of the types the schema kept. */
function keptTargets(build: SchemaBuild, schema: GraphQLSchema): GraphQLTargets {
  return {
    types: new Map([...build.targets.types].filter(([name]) => schema.getType(name) !== undefined)),
    queries: build.targets.queries,
    mutations: build.targets.mutations,
    outsideRegistry: new Set(build.models.filter((model) => !model.inRegistry).map((model) => model.uid)),
  };
}

function placeholderSchema(): GeneratedGraphQL {
  const table = new TypeTable();
  const query = table.add(new GraphQLObjectType({ name: 'Query', fields: () => table.fields({ ok: 'Boolean!' }) }));
  return { schema: valid(new GraphQLSchema({ query })), targets: { types: new Map(), queries: new Map(), mutations: new Map(), outsideRegistry: new Set() } };
}
