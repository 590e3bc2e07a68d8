/**
 * What a write body may give for one scalar attribute, as standard JSON Schema. The API's own
 * checker (write/scalar-schema.ts) says the same with ajv formats and keywords of its own (exact
 * 64-bit bounds on numeric strings, days that exist, no NUL characters); this is its description
 * for clients: it states what a standard validator can check and leaves the rest to the API's
 * 400, so a value it refuses the API refuses too.
 */
import type { ScalarAttribute } from '../schema/registry.js';
import { DECIMAL_TEXT, INTEGER_TEXT, MAX_EPOCH_MS, MIN_EPOCH_MS, TIME_TEXT } from '../write/scalar-convert.js';
import { UID_TEXT } from '../write/scalar-schema.js';
import { BLOCKS_SCHEMA, type JsonSchema } from './names.js';

const INT32 = [-2147483648, 2147483647] as const;
const SAFE = [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER] as const;

/** `YYYY-MM-DD`, or an ISO 8601 date-time with `Z` or an offset (a zone is required: the instant must not depend on the server). */
const INSTANT_TEXT = '^\\d{4}-\\d{2}-\\d{2}(?:T\\d{2}:\\d{2}(?::\\d{2}(?:\\.\\d+)?)?(?:Z|[+-]\\d{2}(?::?\\d{2})?))?$';

/** The spellings of a boolean the API accepts. */
const BOOLEAN_FORMS = [true, false, 1, 0, 'true', 'false', '1', '0'];

/** String-like types stored in `varchar(255)`: longer values are refused on every engine. */
const VARCHAR_TYPES: ReadonlySet<string> = new Set(['string', 'email', 'uid', 'enumeration']);

/** The value schema, with `null` allowed unless the attribute is required (null is then refused, on create and update alike). */
export function scalarInputSchema(attribute: ScalarAttribute): JsonSchema {
  const value = scalarValueInput(attribute);
  if (attribute.type === 'json') return attribute.required ? { not: { type: 'null' } } : value;
  return attribute.required ? value : orNull(value);
}

/** `value` or null, said as plainly as the value's schema allows. */
function orNull(value: JsonSchema): JsonSchema {
  const only = (key: string) => Object.keys(value).length === 1 && key in value;
  if (only('anyOf')) return { anyOf: [...(value.anyOf as JsonSchema[]), { type: 'null' }] };
  if (only('enum')) return { enum: [...(value.enum as unknown[]), null] };
  // The keywords of a string schema (lengths, pattern, format, if/then on length) do not apply to null.
  if (value.type === 'string') return { ...value, type: ['string', 'null'], ...(value.enum ? { enum: [...(value.enum as unknown[]), null] } : {}) };
  return { anyOf: [value, { type: 'null' }] };
}

function scalarValueInput(attribute: ScalarAttribute): JsonSchema {
  switch (attribute.type) {
    case 'integer':
      return numberInput(attribute, 'integer', INTEGER_TEXT, INT32);
    case 'biginteger':
      // A JSON number is exact only up to 2^53; larger values come as strings.
      return numberInput(attribute, 'integer', INTEGER_TEXT, SAFE);
    case 'float':
    case 'decimal':
      return numberInput(attribute, 'number', DECIMAL_TEXT, null);
    case 'boolean':
      return { enum: BOOLEAN_FORMS };
    case 'enumeration':
      return attribute.enum?.length ? { type: 'string', enum: [...attribute.enum] } : { type: 'string' };
    case 'date':
      return { type: 'string', pattern: INSTANT_TEXT, description: '`YYYY-MM-DD`, or a date-time whose UTC date is kept' };
    case 'time':
      return { type: 'string', pattern: TIME_TEXT, description: '`HH:mm:ss` or `HH:mm:ss.SSS`' };
    case 'datetime':
    case 'timestamp':
      return {
        anyOf: [
          { type: 'string', pattern: INSTANT_TEXT, description: 'ISO 8601 with `Z` or an offset' },
          { type: 'number', minimum: MIN_EPOCH_MS, maximum: MAX_EPOCH_MS, description: 'epoch milliseconds' },
        ],
      };
    case 'json':
      return attribute.format === 'blocks' ? BLOCKS_SCHEMA : {};
    case 'email':
      return { ...textInput(attribute, attribute.constraints.regex), format: 'email' };
    case 'uid':
      return textInput(attribute, attribute.constraints.regex ?? UID_TEXT);
    default:
      return textInput(attribute, attribute.constraints.regex);
  }
}

/**
 * `maxLength` always (at most the column's 255 for string-like types); `minLength` and the
 * schema's `regex` only once the string is not empty, as the API accepts `""` like Strapi.
 */
function textInput(attribute: ScalarAttribute, pattern: string | null): JsonSchema {
  const { minLength } = attribute.constraints;
  const maxLength = VARCHAR_TYPES.has(attribute.type) ? Math.min(attribute.constraints.maxLength ?? 255, 255) : attribute.constraints.maxLength;
  const schema: JsonSchema = { type: 'string' };
  if (maxLength !== null) schema.maxLength = maxLength;
  const nonEmpty: JsonSchema = {};
  if (minLength !== null) nonEmpty.minLength = minLength;
  if (pattern !== null) nonEmpty.pattern = pattern;
  if (Object.keys(nonEmpty).length) Object.assign(schema, { if: { minLength: 1 }, then: nonEmpty });
  return schema;
}

/**
 * A JSON number within the type's range and the schema's `min`/`max`, or its digits as a string
 * (bounds on strings are the API's to check: JSON Schema cannot compare text as a number).
 */
function numberInput(attribute: ScalarAttribute, jsonType: 'integer' | 'number', pattern: string, range: readonly [number, number] | null): JsonSchema {
  const number: JsonSchema = { type: jsonType };
  const { min, max } = attribute.constraints;
  const minimum = tighter(Math.max, range?.[0], min);
  const maximum = tighter(Math.min, range?.[1], max);
  if (minimum !== undefined) number.minimum = minimum;
  if (maximum !== undefined) number.maximum = maximum;
  return { anyOf: [number, { type: 'string', pattern }] };
}

/** The tighter of the type's bound and the schema's (a biginteger bound may be text: compared as a number, which is exact within the safe range). */
function tighter(pick: (a: number, b: number) => number, range: number | undefined, bound: number | string | null): number | undefined {
  const declared = bound === null ? undefined : Number(bound);
  if (declared === undefined || !Number.isFinite(declared)) return range;
  return range === undefined ? declared : pick(range, declared);
}
