/**
 * Request-body schemas of the write routes, per model and role: what `data` may hold, in every
 * form the API takes (write/parse-data.ts). Unknown properties are refused, as the API refuses
 * them. Private and password attributes are here (a writer may set them; they are never
 * answered); relations to types the role may not `find`, and media when it may not find `file`,
 * are not (the API refuses them with a 400).
 *
 * - `<Name>Input`: a new entry (POST): the schema's required attributes, and `locale` on
 *   localized types. `<Name>UpdateInput`: a change (PUT): the same attributes, none required,
 *   no `locale`. `<Name>LocalizationInput`: the un-enveloped body of a new localization.
 * - `<Name>Input` of a component: an object with an optional `id` (an existing component of the
 *   entry, changed in place); its required attributes apply to a new one (no `id`).
 *   `<Name>ZoneItemInput`: the same with its `__component`.
 */
import { FILE_UID, type Attribute, type ComponentAttribute, type DynamicZoneAttribute, type Model } from '../schema/registry.js';
import { writableScalars } from '../write/scalar-schema.js';
import { scalarInputSchema } from './input-scalars.js';
import { ref, schemaName, type JsonSchema, type SchemaScope } from './names.js';

/** Names of the input schemas shared by every model; models must not take them. */
export const SHARED_INPUT_NAMES = ['IdInput', 'RelationInput', 'MediaInput', 'MediaListInput'] as const;

/** An entry or file id: a positive integer, or its digits as a string. */
const ID: JsonSchema = { anyOf: [{ type: 'integer', minimum: 1 }, { type: 'string', pattern: '^[1-9][0-9]{0,15}$' }] };
const ID_OBJECT: JsonSchema = { type: 'object', required: ['id'], additionalProperties: false, properties: { id: ref('IdInput') } };
const ID_OR_OBJECT: JsonSchema = { anyOf: [ref('IdInput'), ID_OBJECT] };

/** Where `connect` puts an entry in the list; the end when none. */
const POSITION: JsonSchema = {
  oneOf: [
    { type: 'object', required: ['before'], additionalProperties: false, properties: { before: ref('IdInput') } },
    { type: 'object', required: ['after'], additionalProperties: false, properties: { after: ref('IdInput') } },
    { type: 'object', required: ['start'], additionalProperties: false, properties: { start: { const: true } } },
    { type: 'object', required: ['end'], additionalProperties: false, properties: { end: { const: true } } },
  ],
};
const CONNECT_ITEM: JsonSchema = { anyOf: [ref('IdInput'), { type: 'object', required: ['id'], additionalProperties: false, properties: { id: ref('IdInput'), position: POSITION } }] };

/** One item or a list of them, as `connect`, `disconnect` and `set` take. */
const oneOrMany = (item: JsonSchema): JsonSchema => ({ anyOf: [item, { type: 'array', items: item }] });

export const SHARED_INPUT_SCHEMAS: Record<(typeof SHARED_INPUT_NAMES)[number], JsonSchema> = {
  IdInput: ID,
  RelationInput: {
    description: 'An id, a list of ids (the new list), null (none), `{ id }`, or `{ connect, disconnect, set }`: `set` replaces the list; otherwise `disconnect` removes and each `connect` item goes to its `position` (the end when none). A to-one relation keeps the last.',
    anyOf: [
      ref('IdInput'),
      ID_OBJECT,
      { type: 'null' },
      { type: 'array', items: ID_OR_OBJECT },
      { type: 'object', minProperties: 1, additionalProperties: false, properties: { connect: oneOrMany(CONNECT_ITEM), disconnect: oneOrMany(ID_OR_OBJECT), set: oneOrMany(ID_OR_OBJECT) } },
    ],
  },
  MediaInput: { description: 'A file id, `{ id }`, or null (none)', anyOf: [ID_OR_OBJECT, { type: 'null' }, { type: 'array', maxItems: 1, items: ID_OR_OBJECT }] },
  MediaListInput: { description: 'File ids or `{ id }`, in order (the new list); null empties it', anyOf: [ID_OR_OBJECT, { type: 'null' }, { type: 'array', items: ID_OR_OBJECT }] },
};

/** The components a body of `written` may hold, at any depth, private attributes included. */
export function inputComponents(scope: SchemaScope, written: readonly Model[]): Model[] {
  const seen = new Map<string, Model>();
  const visit = (model: Model): void => {
    for (const attribute of model.attributes.values()) {
      const uids = attribute.kind === 'component' ? [attribute.component] : attribute.kind === 'dynamiczone' ? attribute.components : [];
      for (const uid of uids) {
        if (seen.has(uid)) continue;
        seen.set(uid, scope.registry.models.get(uid)!);
        visit(seen.get(uid)!);
      }
    }
  };
  written.forEach(visit);
  return [...seen.values()];
}

/** The input schemas of a content type the role writes (by what it may do), or of a component. */
export function modelInputSchemas(scope: SchemaScope, model: Model): Record<string, JsonSchema> {
  const name = schemaName(scope, model);
  const { properties, required } = inputProperties(scope, model);
  if (model.modelType === 'component') {
    const id = { anyOf: [ref('IdInput'), { type: 'null' }], description: 'An existing component of this entry, changed in place (only the attributes given); none for a new one' };
    // A new component must be whole; an existing one is changed with what is given.
    const whole = required.length ? { if: { required: ['id'], properties: { id: { not: { type: 'null' } } } }, else: { required } } : {};
    const item = (fixed: Record<string, JsonSchema>, fixedRequired: string[]): JsonSchema => ({ type: 'object', additionalProperties: false, required: fixedRequired, properties: { ...fixed, id, ...properties }, ...whole });
    return { [`${name}Input`]: item({}, []), [`${name}ZoneItemInput`]: item({ __component: { const: model.uid } }, ['__component']) };
  }
  const schemas: Record<string, JsonSchema> = {};
  // A single type creates through its first PUT, and its other locales through POST /localizations.
  const canCreate = scope.grants.can(model.uid, 'create') && (model.kind === 'collectionType' || model.localized);
  if (canCreate) {
    const locale = { type: 'string', description: 'A locale the API knows; else `?locale=`, else the default locale' };
    schemas[`${name}Input`] = { type: 'object', additionalProperties: false, required, properties: model.localized ? { ...properties, locale } : properties };
    if (model.localized) {
      schemas[`${name}LocalizationInput`] = { description: 'The new localization: its attributes and its `locale` (the attributes that are not localized are copied from the entry)', allOf: [ref(`${name}Input`), { required: ['locale'] }] };
    }
  }
  if (scope.grants.can(model.uid, 'update')) {
    const single = model.kind === 'singleType';
    const description = single
      ? 'The attributes to change; the others stay. The PUT that creates the first entry (while the type has none) needs the required attributes.'
      : 'The attributes to change; the others stay.';
    const locale = { type: 'string', description: 'Only on the PUT that creates the first entry: its locale (else `?locale=`, else the default locale)' };
    schemas[`${name}UpdateInput`] = { type: 'object', additionalProperties: false, description, properties: single && model.localized ? { ...properties, locale } : properties };
  }
  return schemas;
}

/** The writable attributes of `model` for this role, and which of them are required. */
function inputProperties(scope: SchemaScope, model: Model): { properties: Record<string, JsonSchema>; required: string[] } {
  const scalars = new Set(writableScalars(model));
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const attribute of model.attributes.values()) {
    const schema = attribute.kind === 'scalar' ? (scalars.has(attribute) ? scalarInputSchema(attribute) : null) : nonScalarInput(scope, attribute);
    if (!schema) continue;
    properties[attribute.name] = schema;
    if ('required' in attribute && attribute.required) required.push(attribute.name);
  }
  return { properties, required };
}

function nonScalarInput(scope: SchemaScope, attribute: Attribute): JsonSchema | null {
  switch (attribute.kind) {
    case 'relation':
      return scope.grants.can(attribute.target, 'find') ? ref('RelationInput') : null;
    case 'media':
      return scope.grants.can(FILE_UID, 'find') ? ref(attribute.multiple ? 'MediaListInput' : 'MediaInput') : null;
    case 'component': {
      const component = ref(`${schemaName(scope, scope.registry.models.get(attribute.component)!)}Input`);
      return attribute.repeatable ? listInput(attribute, component) : { anyOf: [component, { type: 'null' }] };
    }
    case 'dynamiczone':
      return listInput(attribute, { oneOf: attribute.components.map((uid) => ref(`${schemaName(scope, scope.registry.models.get(uid)!)}ZoneItemInput`)) });
    default:
      return null;
  }
}

/** A repeatable component or a zone: a list within its `max`, and its `min` once it holds any (always, when required). */
function listInput(attribute: ComponentAttribute | DynamicZoneAttribute, items: JsonSchema): JsonSchema {
  const schema: JsonSchema = { type: 'array', items };
  if (attribute.max !== null) schema.maxItems = attribute.max;
  if (attribute.min !== null) Object.assign(schema, attribute.required ? { minItems: attribute.min } : { if: { minItems: 1 }, then: { minItems: attribute.min } });
  return schema;
}
