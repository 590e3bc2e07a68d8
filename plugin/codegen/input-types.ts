/**
 * TypeScript declarations for a schema's write bodies (`POST`/`PUT` `{ data }`): one `<Name>Input`
 * per content type and component, each attribute in the forms the API accepts (docs/writes.md).
 * Every property is optional: a `PUT` gives any of them, and which a `POST` needs depends on the
 * entry being a draft, which the server checks. Attributes the API maintains have no property.
 */
import type { Attribute, Model, ScalarAttribute } from '../schema/registry.js';
import { pascalCase, propertyKey } from './names.js';

export const INPUT_ENVELOPES = `/** A related entry or file, by id. */
export type IdInput = number | { id: number };

/** Where \`connect\` puts an entry in a to-many list. */
export type PositionInput = { before: number } | { after: number } | { start: true } | { end: true };

/** A relation in a write body: an id, a list of ids (the new list), null, or list operations. */
export type RelationInput =
  | IdInput
  | IdInput[]
  | null
  | { connect?: (IdInput | { id: number; position?: PositionInput })[]; disconnect?: IdInput[]; set?: IdInput[] };

/** Media in a write body: a file id, \`{ id }\`, a list of them, or null. */
export type MediaInput = IdInput | IdInput[] | null;

/** \`POST /api/<pluralName>\`, \`PUT /api/<pluralName>/:id\` and \`PUT /api/<singularName>\` bodies. */
export interface WriteBody<I> {
  data: I;
}
`;

/** The `<Name>Input` declaration of `model`, named after its response type. */
export function inputDeclaration(model: Model, names: ReadonlyMap<string, string>): string {
  const name = inputName(names, model.uid);
  const properties: string[] = model.modelType === 'component' ? ['  /** An existing component of the entry, to update in place. */', '  id?: number;'] : [];
  const extra: string[] = [];
  if (model.localized && model.modelType === 'contentType') properties.push('  /** The locale of a new entry (POST). */', '  locale?: string;');
  for (const attribute of model.attributes.values()) {
    const input = inputOf(model, attribute, names);
    if (!input) continue;
    properties.push(`  ${propertyKey(attribute.name)}?: ${input.type};`);
    if (input.declaration) extra.push(input.declaration);
  }
  return [`/** What a write body's \`data\` may hold for ${model.uid}. */`, `export interface ${name} {`, ...properties, '}', ...extra, ''].join('\n');
}

function inputName(names: ReadonlyMap<string, string>, uid: string): string {
  return `${names.get(uid)}Input`;
}

function inputOf(model: Model, attribute: Attribute, names: ReadonlyMap<string, string>): { type: string; declaration?: string } | null {
  switch (attribute.kind) {
    case 'scalar': {
      if (attribute.implicit && !(attribute.name === 'publishedAt' && model.draftAndPublish)) return null;
      const type = scalarInput(attribute);
      return { type: attribute.required ? type : `${type} | null` };
    }
    case 'relation':
      return { type: 'RelationInput' };
    case 'media':
      return { type: 'MediaInput' };
    case 'component': {
      const component = inputName(names, attribute.component);
      return { type: attribute.repeatable ? `${component}[]` : `${component} | null` };
    }
    case 'dynamiczone': {
      const zone = `${names.get(model.uid)}${pascalCase(attribute.name)}ZoneInput`;
      const members = attribute.components.map((uid) => `  | ({ __component: ${JSON.stringify(uid)} } & ${inputName(names, uid)})`);
      if (!members.length) return { type: 'never[]' };
      const declaration = [`/** An item of ${model.uid}'s \`${attribute.name}\` zone in a write body. */`, `export type ${zone} =`, ...members, '  ;'].join('\n');
      return { type: `${zone}[]`, declaration };
    }
    default:
      return null;
  }
}

/** A scalar in the forms a write accepts: numbers as numeric text too, booleans as 1/0 and text. */
function scalarInput(attribute: ScalarAttribute): string {
  switch (attribute.type) {
    case 'integer':
    case 'float':
    case 'decimal':
    case 'biginteger':
      return 'number | string';
    case 'boolean':
      return "boolean | 0 | 1 | 'true' | 'false' | '1' | '0'";
    case 'datetime':
    case 'timestamp':
      return 'string | number';
    case 'json':
    case 'enumeration':
      return valueType(attribute);
    default:
      return 'string';
  }
}

/** json, blocks and enumeration values, the same written as read. */
export function valueType(attribute: ScalarAttribute): string {
  if (attribute.type === 'enumeration') return attribute.enum?.length ? attribute.enum.map((value) => JSON.stringify(value)).join(' | ') : 'string';
  // Blocks are a list of editor nodes, each an object with its `type`.
  return attribute.format === 'blocks' ? 'Array<{ type: string; [key: string]: JsonValue }>' : 'JsonValue';
}
