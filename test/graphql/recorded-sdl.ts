/**
 * The reference's recorded SDL (test/graphql/sdl/<name>.graphql) as the package means to serve
 * it: the documented deviations (docs/graphql.md) applied by rule, from the models themselves,
 * never by editing the recording. G1: a private or password attribute is no field of its model's
 * type, filters input or input, and its enumeration no type; the types only it reached go, as
 * Strapi's pruning removes unreached types (enumerations stay, as there). A polymorphic relation
 * (a `GenericMorph` field) the model lacks goes too: import-strapi drops them (docs/import-strapi.md).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  buildASTSchema,
  GraphQLSchema,
  isEnumType,
  Kind,
  lexicographicSortSchema,
  parse,
  visit,
  type DocumentNode,
  type EnumTypeDefinitionNode,
  type InputObjectTypeDefinitionNode,
  type ObjectTypeDefinitionNode,
  type TypeNode,
} from 'graphql';
import type { SchemaModel } from '../../plugin/graphql/schema/models.js';
import { baseName, enumName, filtersInputName, inputName } from '../../plugin/graphql/schema/names.js';
import { repoRoot } from '../support/api.js';

export const SDL_DIR = join(repoRoot, 'test', 'graphql', 'sdl');

/** Type name → the field names G1 removes from it; and the enumeration types it removes. */
interface Removals {
  readonly fields: Map<string, Set<string>>;
  readonly enums: Set<string>;
  /** A model's type name → its attribute names: a GenericMorph field not among them goes. */
  readonly attributes: Map<string, Set<string>>;
}

function removalsFor(models: readonly SchemaModel[]): Removals {
  const removals: Removals = { fields: new Map(), enums: new Set(), attributes: new Map() };
  for (const model of models) {
    removals.attributes.set(baseName(model), new Set(model.attributes.keys()));
    const hidden = [...model.attributes.values()].filter((attribute) => attribute.hidden);
    for (const type of [baseName(model), filtersInputName(model), inputName(model)]) {
      removals.fields.set(type, new Set(hidden.map((attribute) => attribute.name)));
    }
    for (const attribute of hidden) if (attribute.kind === 'scalar' && attribute.type === 'enumeration') removals.enums.add(enumName(model, attribute.name));
  }
  return removals;
}

/** The document without the removed fields and enumerations; `removed` counts what went. */
function withoutHidden(document: DocumentNode, removals: Removals): { document: DocumentNode; removed: string[] } {
  const removed: string[] = [];
  const keep = <T extends ObjectTypeDefinitionNode | InputObjectTypeDefinitionNode>(node: T): T => {
    const gone = removals.fields.get(node.name.value);
    const known = removals.attributes.get(node.name.value);
    if ((!gone && !known) || !node.fields) return node;
    const fields = (node.fields as readonly { name: { value: string }; type: TypeNode }[]).filter((field) => {
      const droppedMorph = known !== undefined && namedType(field.type) === 'GenericMorph' && !known.has(field.name.value);
      if (!gone?.has(field.name.value) && !droppedMorph) return true;
      removed.push(`${node.name.value}.${field.name.value}`);
      return false;
    });
    return { ...node, fields } as T;
  };
  const result = visit(document, {
    [Kind.OBJECT_TYPE_DEFINITION]: keep,
    [Kind.INPUT_OBJECT_TYPE_DEFINITION]: keep,
    [Kind.ENUM_TYPE_DEFINITION]: (node: EnumTypeDefinitionNode) => {
      if (!removals.enums.has(node.name.value)) return undefined;
      removed.push(node.name.value);
      return null;
    },
  });
  return { document: result, removed };
}

function namedType(type: TypeNode): string {
  return type.kind === Kind.NAMED_TYPE ? type.name.value : namedType(type.type);
}

/** Only the types the root types reach, and every enumeration. */
function pruned(schema: GraphQLSchema): GraphQLSchema {
  const enums = Object.values(schema.getTypeMap()).filter((type) => isEnumType(type) && !type.name.startsWith('__'));
  return new GraphQLSchema({ query: schema.getQueryType(), mutation: schema.getMutationType(), types: enums });
}

/** The recording `name`, as the package means to serve it for `models`, and what G1 removed. */
export function expectedSchema(name: string, models: readonly SchemaModel[]): { schema: GraphQLSchema; removed: string[] } {
  const recorded = parse(readFileSync(join(SDL_DIR, `${name}.graphql`), 'utf8'));
  const { document, removed } = withoutHidden(recorded, removalsFor(models));
  return { schema: lexicographicSortSchema(pruned(buildASTSchema(document))), removed };
}
