/**
 * Checks and converts the scalar attribute values of one model in a write body's `data`: one ajv
 * validator per model, compiled once (scalar-schema.ts), every problem of the object reported at
 * once, one per attribute, worded as Strapi words it (`title must be defined.`,
 * `seo.metaTitle must be at most 60 characters`). ajv's raw errors never leave this file.
 */
import type { ErrorObject, ValidateFunction } from 'ajv';
import type { Model, Registry, ScalarAttribute } from '../schema/registry.js';
import { convertScalar, DECIMAL_TEXT } from './scalar-convert.js';
import { createScalarAjv, modelSchema, writableScalars } from './scalar-schema.js';

/** Where a value is in a write body's `data`: `['seo', 'metaTitle']`, `['links', 1, 'label']`. */
export type ValuePath = readonly (string | number)[];

export interface ValueProblem {
  readonly path: ValuePath;
  readonly message: string;
}

export interface CheckedValues {
  /** Attribute name → converted value, for the attributes `data` names that have no problem. */
  readonly values: Record<string, unknown>;
  /** In the model's attribute order, one per attribute at most. */
  readonly problems: ValueProblem[];
}

export interface CheckOptions {
  /** An update: absent attributes keep their value. */
  readonly partial: boolean;
  readonly path: ValuePath;
  /** A draft, as Strapi checks one: neither `required` nor `minLength` applies. */
  readonly draft?: boolean;
  /** Attributes that may be absent though required: a new localization takes them from its source. */
  readonly inherited?: ReadonlySet<string>;
}

export interface ScalarChecker {
  /** Checks and converts the scalar attributes of model `uid` that `data` names (other keys are ignored: the caller handles them). */
  check(uid: string, data: Record<string, unknown>, options: CheckOptions): CheckedValues;
}

interface ModelValidator {
  readonly validate: ValidateFunction;
  /** The writable scalars by name, in the model's attribute order. */
  readonly attributes: ReadonlyMap<string, ScalarAttribute>;
}

/** What a failed attribute's message is made of. */
interface Failure {
  readonly attribute: ScalarAttribute;
  readonly error: ErrorObject;
  readonly value: unknown;
  /** The dotted path as Strapi prints it: `seo.metaSocial[0].title`. */
  readonly label: string;
  readonly partial: boolean;
}

/** Applicators whose own errors only repeat the errors of their subschemas. */
const APPLICATORS = new Set(['if', 'anyOf', 'allOf', 'oneOf', 'not']);
/** Types Strapi checks with `yup.mixed()`: a null fails "defined" or "not null" rather than a type. */
const UNTYPED = new Set(['biginteger', 'date', 'time', 'datetime', 'timestamp', 'json']);
const TEXT = new Set(['string', 'text', 'richtext', 'password', 'uid', 'email', 'enumeration']);
const NUMBER = new Set(['integer', 'biginteger', 'float', 'decimal']);
const DECIMAL = new RegExp(DECIMAL_TEXT);

/**
 * One ajv validator per model (content types, components, the file type), compiled once; the
 * validator of a model's drafts, compiled the first time a draft is written.
 */
export function compileScalarChecker(registry: Registry): ScalarChecker {
  const ajv = createScalarAjv();
  const compile = ajv.compile.bind(ajv);
  const validators = new Map<string, ModelValidator>();
  const draftValidators = new Map<string, ModelValidator>();
  for (const model of registry.models.values()) validators.set(model.uid, compileModel(compile, model, false));
  return {
    check(uid, data, options) {
      const model = registry.models.get(uid);
      if (!model) throw new Error(`unknown model ${uid}`);
      let validator = validators.get(uid)!;
      if (options.draft) {
        validator = draftValidators.get(uid) ?? compileModel(compile, model, true);
        draftValidators.set(uid, validator);
      }
      return checkValues(validator, data, options);
    },
  };
}

function compileModel(compile: (schema: object) => ValidateFunction, model: Model, draft: boolean): ModelValidator {
  const attributes = writableScalars(model);
  const checked = draft ? attributes.map(asDraftChecks) : attributes;
  return { validate: compile(modelSchema(checked)), attributes: new Map(attributes.map((attribute) => [attribute.name, attribute])) };
}

/** Strapi checks a draft's values without `required` and `minLength`: it may be saved unfinished. */
function asDraftChecks(attribute: ScalarAttribute): ScalarAttribute {
  return { ...attribute, required: false, constraints: { ...attribute.constraints, minLength: null } };
}

function checkValues(validator: ModelValidator, data: Record<string, unknown>, options: CheckOptions): CheckedValues {
  validator.validate(data);
  const failures = new Map<string, ErrorObject>();
  for (const error of validator.validate.errors ?? []) {
    if (APPLICATORS.has(error.keyword)) continue;
    if (error.keyword === 'required' && (options.partial || options.inherited?.has(String(error.params.missingProperty)))) continue;
    const name = error.keyword === 'required' ? String(error.params.missingProperty) : attributeOf(error.instancePath);
    if (!failures.has(name)) failures.set(name, error);
  }
  const values: Record<string, unknown> = {};
  const problems: ValueProblem[] = [];
  for (const [name, attribute] of validator.attributes) {
    const error = failures.get(name);
    const value = Object.hasOwn(data, name) ? data[name] : undefined;
    if (error) {
      const path = [...options.path, name, ...((error.params as { at?: ValuePath }).at ?? [])];
      problems.push({ path, message: messageOf({ attribute, error, value, label: labelOf(path), partial: options.partial }) });
    } else if (value !== undefined) {
      values[name] = value === null ? null : convertScalar(attribute.type, value);
    }
  }
  return { values, problems };
}

/** The attribute an error is about: the first step of its JSON pointer (`/seo/…` → `seo`). */
function attributeOf(instancePath: string): string {
  const step = instancePath.split('/')[1] ?? '';
  return step.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** Strapi's (yup's) spelling of a path: names joined by dots, list indexes in brackets. */
export function labelOf(path: ValuePath): string {
  return path.reduce<string>((label, step) => (typeof step === 'number' ? `${label}[${step}]` : label ? `${label}.${step}` : step), '');
}

function messageOf(failure: Failure): string {
  const { attribute, error, label, partial } = failure;
  if (error.keyword === 'required') return `${label} must be defined.`;
  if (error.keyword === 'noNul') return `${label} cannot contain NUL characters`;
  if (error.keyword === 'blocks') return `${label} ${error.message}`;
  if (error.keyword === 'false schema') {
    if (UNTYPED.has(attribute.type)) return partial ? `${label} cannot be null` : `${label} must be defined.`;
    return typeMessage(label, TEXT.has(attribute.type) ? 'string' : NUMBER.has(attribute.type) ? 'number' : 'boolean', null);
  }
  if (TEXT.has(attribute.type)) return textMessage(failure);
  if (NUMBER.has(attribute.type)) return numberMessage(failure);
  switch (attribute.type) {
    case 'boolean':
      return typeMessage(label, 'boolean', failure.value);
    case 'date':
      return `${label} must be a valid date in the format yyyy-MM-dd`;
    case 'time':
      return `${label} must be a valid time in the format HH:mm:ss.SSS`;
    default:
      return `${label} must be a timestamp or an ISO date (a date-time needs Z or an offset)`;
  }
}

function textMessage({ attribute, error, value, label }: Failure): string {
  switch (error.keyword) {
    case 'maxLength':
      return `${label} must be at most ${error.params.limit} characters`;
    case 'minLength':
      return `${label} must be at least ${error.params.limit} characters`;
    case 'pattern':
      return `${label} must match the following: "/${error.params.pattern}/"`;
    case 'format':
      return value === '' ? `${label} cannot be empty` : `${label} must be a valid email`;
    case 'enum':
      // Strapi lists the values followed by the null it also allows, printed empty: "…, interview, ".
      return `${label} must be one of the following values: ${[...(attribute.enum ?? []), null].join(', ')}`;
    default:
      return typeMessage(label, 'string', value);
  }
}

function numberMessage({ attribute, error, value, label }: Failure): string {
  const integral = attribute.type === 'integer' || attribute.type === 'biginteger';
  switch (error.keyword) {
    case 'numericMinimum':
      return `${label} must be greater than or equal to ${String(error.schema)}`;
    case 'numericMaximum':
      return `${label} must be less than or equal to ${String(error.schema)}`;
    case 'minimum':
    case 'maximum':
      return `${label} must be a safe integer; send larger values as a string`;
    default: {
      const looksNumeric = typeof value === 'number' || (typeof value === 'string' && DECIMAL.test(value));
      if (integral && looksNumeric) return `${label} must be an integer`;
      // yup casts what it is given to a number first: anything that is not one becomes NaN.
      return `${label} must be a \`number\` type, but the final value was: \`NaN\` (cast from the value \`${printValue(value)}\`).`;
    }
  }
}

function typeMessage(label: string, type: string, value: unknown): string {
  return `${label} must be a \`${type}\` type, but the final value was: \`${printValue(value)}\`.`;
}

/** A value as yup prints it in messages: strings quoted, objects as indented JSON of printed leaves. */
function printValue(value: unknown): string {
  return (
    printLeaf(value) ??
    JSON.stringify(value, function (this: Record<string, unknown>, key: string, inner: unknown) {
      return printLeaf(this[key]) ?? inner;
    }, 2)
  );
}

function printLeaf(value: unknown): string | null {
  if (value === null || value === undefined || typeof value === 'boolean') return String(value);
  if (typeof value === 'number') return Object.is(value, -0) ? '-0' : String(value);
  if (typeof value === 'string') return `"${value}"`;
  return null;
}
