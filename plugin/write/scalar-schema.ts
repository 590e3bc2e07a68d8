/**
 * The JSON Schema of a model's scalar values in a write body, and the ajv instance that compiles
 * it. Each attribute accepts the forms Strapi accepts (`"12"` for an integer, `"true"` for a
 * boolean, epoch milliseconds for a datetime) through `type` lists, patterns, formats and two
 * custom keywords — never through ajv's `coerceTypes`, which would turn null into 0 or "". The
 * accepted value is converted afterwards, in plain code (scalar-convert.ts).
 */
import { Ajv, type SchemaObject } from 'ajv';
import type { DataValidateFunction } from 'ajv/dist/types/index.js';
import { blocksProblem } from './blocks.js';
import type { Model, ScalarAttribute } from '../schema/registry.js';
import {
  compareNumeric,
  DECIMAL_TEXT,
  INTEGER_TEXT,
  isDateText,
  isNumeric,
  MAX_EPOCH_MS,
  MIN_EPOCH_MS,
  parseInstant,
  TIME_TEXT,
} from './scalar-convert.js';

/** Strapi's pattern for uid attributes without a `regex` of their own. */
export const UID_TEXT = '^[A-Za-z0-9-_.~]*$';

/** An address with a local part, `@`, and a domain of at least two labels (`a@b` is refused). */
export const EMAIL =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)+$/;

const INT32: readonly [number, number] = [-2147483648, 2147483647];
const INT64: readonly [string, string] = ['-9223372036854775808', '9223372036854775807'];
const FLOAT: readonly [number, number] = [-Number.MAX_VALUE, Number.MAX_VALUE];

/** The spellings of a boolean Strapi accepts. */
const BOOLEAN_FORMS = [true, false, 1, 0, 'true', 'false', '1', '0'];

/**
 * An ajv instance with the formats and keywords the scalar schemas use. `verbose` puts each failed
 * keyword's schema value (a bound, a pattern) on its error, for the message. `unicodeRegExp: false`
 * compiles a schema's `regex` as Strapi does, with `new RegExp(regex)`.
 */
export function createScalarAjv(): Ajv {
  const ajv = new Ajv({ allErrors: true, verbose: true, strict: true, strictTypes: false, unicodeRegExp: false });
  ajv.addFormat('email', EMAIL);
  ajv.addFormat('calendar-date', { type: 'string', validate: isDateText });
  ajv.addFormat('instant', { type: 'string', validate: (text: string) => parseInstant(text) !== null });
  // Bounds apply to numbers and to numeric strings alike; non-numeric strings fail their pattern instead.
  ajv.addKeyword({
    keyword: 'numericMinimum',
    type: ['number', 'string'],
    schemaType: ['number', 'string'],
    errors: false,
    validate: (bound: number | string, data: unknown) => !isNumeric(data) || compareNumeric(data, bound) >= 0,
  });
  ajv.addKeyword({
    keyword: 'numericMaximum',
    type: ['number', 'string'],
    schemaType: ['number', 'string'],
    errors: false,
    validate: (bound: number | string, data: unknown) => !isNumeric(data) || compareNumeric(data, bound) <= 0,
  });
  // PostgreSQL refuses NUL in text and in jsonb strings: caught here it is a 400, not a 500.
  ajv.addKeyword({ keyword: 'noNul', schemaType: 'boolean', errors: false, validate: (_: boolean, data: unknown) => !holdsNul(data) });
  // The blocks editor's nodes: the error carries the problem's message and where it is below the attribute.
  ajv.addKeyword({
    keyword: 'blocks',
    schemaType: 'boolean',
    errors: true,
    validate: checkBlocks,
  });
  return ajv;
}

const checkBlocks: DataValidateFunction = (_schema: boolean, data: unknown) => {
  const problem = blocksProblem(data);
  checkBlocks.errors = problem ? [{ keyword: 'blocks', message: problem.message, params: { at: problem.at } }] : undefined;
  return problem === null;
};

/**
 * Whether a string, or any key or string inside a JSON value, holds a NUL character. Walked with a
 * stack rather than recursion: a body may nest lists deeper than the call stack goes.
 */
function holdsNul(root: unknown): boolean {
  const pending: unknown[] = [root];
  while (pending.length) {
    const value = pending.pop();
    if (typeof value === 'string' && value.includes('\u0000')) return true;
    if (value === null || typeof value !== 'object') continue;
    for (const [key, inner] of Object.entries(value)) {
      if (key.includes('\u0000')) return true;
      pending.push(inner);
    }
  }
  return false;
}

/**
 * The scalars a write body may set on `model`: the author's, and `publishedAt` on draft-and-publish
 * types. createdAt, updatedAt and locale are maintained by the plugin, never written.
 */
export function writableScalars(model: Model): ScalarAttribute[] {
  return [...model.attributes.values()].filter(
    (attribute): attribute is ScalarAttribute =>
      attribute.kind === 'scalar' && (!attribute.implicit || (attribute.name === 'publishedAt' && model.draftAndPublish)),
  );
}

/**
 * The object schema of `attributes`; `required` lists the required ones that have no default
 * (ignored by updates): a new row takes the default of an absent one, as Strapi does, while an
 * explicit null is still refused.
 */
export function modelSchema(attributes: readonly ScalarAttribute[]): SchemaObject {
  const properties: Record<string, SchemaObject> = {};
  for (const attribute of attributes) properties[attribute.name] = attributeSchema(attribute);
  const required = attributes.filter((attribute) => attribute.required && !hasDefault(attribute)).map((attribute) => attribute.name);
  return { type: 'object', properties, required };
}

function hasDefault(attribute: ScalarAttribute): boolean {
  return attribute.default !== null && attribute.default !== undefined;
}

/** Null is a value of its own: allowed unless the attribute is required (`then: false` fails it). */
function attributeSchema(attribute: ScalarAttribute): SchemaObject {
  return { if: { type: 'null' }, then: !attribute.required, else: valueSchema(attribute) };
}

function valueSchema(attribute: ScalarAttribute): SchemaObject {
  switch (attribute.type) {
    case 'enumeration':
      return { type: 'string', enum: [...(attribute.enum ?? [])] };
    case 'email':
      return { ...textSchema(attribute, attribute.constraints.regex), format: 'email' };
    case 'uid':
      return textSchema(attribute, attribute.constraints.regex ?? UID_TEXT);
    case 'integer':
      return numberSchema(attribute, 'integer', INTEGER_TEXT, INT32);
    case 'biginteger':
      // A JSON number must be exact to be kept exact; larger values come as strings.
      return { ...numberSchema(attribute, 'integer', INTEGER_TEXT, INT64), minimum: Number.MIN_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER };
    case 'float':
    case 'decimal':
      return numberSchema(attribute, 'number', DECIMAL_TEXT, FLOAT);
    case 'boolean':
      return { enum: BOOLEAN_FORMS };
    case 'date':
      return { type: 'string', format: 'calendar-date' };
    case 'time':
      return { type: 'string', pattern: TIME_TEXT };
    case 'datetime':
    case 'timestamp':
      return { type: ['string', 'number'], format: 'instant', minimum: MIN_EPOCH_MS, maximum: MAX_EPOCH_MS };
    case 'json':
      return attribute.format === 'blocks' ? { noNul: true, blocks: true } : { noNul: true };
    default:
      return textSchema(attribute, attribute.constraints.regex);
  }
}

/**
 * The types stored in a `varchar(255)` column of Strapi's layout: a longer value fits SQLite but
 * fails on PostgreSQL, so it is refused on both. A password is stored as its hash.
 */
const VARCHAR_TYPES: ReadonlySet<string> = new Set(['string', 'email', 'uid', 'enumeration']);
const VARCHAR_LENGTH = 255;

/**
 * Strings: `maxLength` always (at most the column's size); `minLength` and the pattern only once
 * the string is not empty, as Strapi accepts `""` even for a required attribute.
 */
function textSchema(attribute: ScalarAttribute, pattern: string | null): SchemaObject {
  const { minLength } = attribute.constraints;
  const maxLength = VARCHAR_TYPES.has(attribute.type) ? Math.min(attribute.constraints.maxLength ?? VARCHAR_LENGTH, VARCHAR_LENGTH) : attribute.constraints.maxLength;
  const nonEmpty: SchemaObject = {};
  if (minLength !== null) nonEmpty.minLength = minLength;
  if (pattern !== null) nonEmpty.pattern = pattern;
  const schema: SchemaObject = { type: 'string', noNul: true };
  if (maxLength !== null) schema.maxLength = maxLength;
  if (Object.keys(nonEmpty).length) Object.assign(schema, { if: { minLength: 1 }, then: nonEmpty });
  return schema;
}

/** A JSON number of `jsonType`, or a string matching `pattern`, within the type's range and the schema's min/max. */
function numberSchema(
  attribute: ScalarAttribute,
  jsonType: 'integer' | 'number',
  pattern: string,
  range: readonly [number | string, number | string],
): SchemaObject {
  const { min, max } = attribute.constraints;
  return {
    type: [jsonType, 'string'],
    pattern,
    numericMinimum: min !== null && compareNumeric(min, range[0]) > 0 ? min : range[0],
    numericMaximum: max !== null && compareNumeric(max, range[1]) < 0 ? max : range[1],
  };
}
