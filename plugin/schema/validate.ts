/**
 * Structural validation of one schema document against the shipped JSON Schema, with every ajv
 * error turned into a problem an author can act on: where (a YAML path) and what is expected.
 */
import { readFileSync } from 'node:fs';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { closestName } from './closest-name.js';
import { schemaFileName, schemaFilePath, type SchemaFileKind } from './schema-files.js';

/** A path into a YAML document: mapping keys and list indexes (`['attributes', 'blocks', 'components', 0]`). */
export type YamlPath = readonly (string | number)[];

/** One structural problem of a document. */
export interface ValidationIssue {
  /** The YAML path of the offending node; for a missing key, the path the key would have. */
  readonly path: YamlPath;
  readonly message: string;
  /** Point at the key of the last path step rather than at its value (unknown or badly named keys). */
  readonly atKey: boolean;
  /** The JSON Schema keyword that failed: `additionalProperties` marks an unknown key. */
  readonly keyword: string;
}

/** Human wording for the name patterns of the JSON Schema. */
const PATTERN_HINTS: Record<string, string> = {
  '^[A-Za-z][A-Za-z0-9_]*$': 'letters, digits and underscores, starting with a letter',
  '^[a-z][a-z0-9-]*$': 'lowercase letters, digits and dashes, starting with a letter',
  '^[a-z][a-z0-9_]*$': 'lowercase letters, digits and underscores, starting with a letter',
  '^[a-z][a-z0-9-]*\\.[a-z][a-z0-9-]*$': 'a component uid such as shared.seo',
  '^(api|plugin)::[a-z][a-z0-9-]*\\.[a-z][a-z0-9-]*$': 'a uid such as api::article.article',
  '^-?[0-9]+$': 'an integer',
  '^[A-Za-z][A-Za-z0-9_]*(:(asc|desc))?$': 'an attribute name, with :asc or :desc for its direction (views:desc)',
};

const TYPE_NAMES: Record<string, string> = {
  object: 'a mapping',
  array: 'a list',
  string: 'a string',
  boolean: 'a boolean',
  integer: 'an integer',
  number: 'a number',
  null: 'null',
};

type Validators = Record<SchemaFileKind, ValidateFunction>;

/** Compiled on first use and kept for the life of the process: compiling is the costly part. */
let compiled: Validators | undefined;

function compileValidators(): Validators {
  const ajv = new Ajv({ allErrors: true, verbose: true, strict: true, strictTypes: false });
  for (const kind of ['contentType', 'component'] as const) {
    ajv.addSchema(JSON.parse(readFileSync(schemaFilePath(kind), 'utf8')), schemaFileName(kind));
  }
  return {
    contentType: ajv.getSchema(schemaFileName('contentType')) as ValidateFunction,
    component: ajv.getSchema(schemaFileName('component')) as ValidateFunction,
  };
}

/** Validate a parsed document; an empty list means it has the shape normalize expects. */
export function validateDocument(kind: SchemaFileKind, data: unknown): ValidationIssue[] {
  compiled ??= compileValidators();
  const validate = compiled[kind];
  if (validate(data)) return [];
  const issues: ValidationIssue[] = [];
  for (const error of validate.errors ?? []) {
    const issue = describeError(error, data);
    if (issue) issues.push(issue);
  }
  return issues;
}

/** JSON pointer → YAML path, with array indexes as numbers. */
function pointerToPath(pointer: string, data: unknown): (string | number)[] {
  if (!pointer) return [];
  const path: (string | number)[] = [];
  let node = data;
  for (const raw of pointer.slice(1).split('/')) {
    const segment = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    const step = Array.isArray(node) ? Number(segment) : segment;
    path.push(step);
    node = node !== null && typeof node === 'object' ? (node as Record<string | number, unknown>)[step] : undefined;
  }
  return path;
}

function describeError(error: ErrorObject, root: unknown): ValidationIssue | null {
  const path = pointerToPath(error.instancePath, root);
  const params = error.params as Record<string, unknown>;
  const parent = (error.parentSchema ?? {}) as { title?: string; properties?: Record<string, unknown> };
  const at = (message: string, extra: (string | number)[] = [], atKey = false): ValidationIssue => ({
    path: [...path, ...extra],
    message,
    atKey,
    keyword: error.keyword,
  });
  switch (error.keyword) {
    case 'if':
    case 'propertyNames':
      // Wrappers: the errors inside them say what is wrong.
      return null;
    case 'required':
      return at(`missing required key "${params.missingProperty}"`, [params.missingProperty as string]);
    case 'additionalProperties': {
      const key = params.additionalProperty as string;
      return at(unknownKeyMessage(key, Object.keys(parent.properties ?? {})), [key], true);
    }
    case 'type':
      return at(`expected ${describeTypes(params.type)}`);
    case 'enum':
      return at(`unknown ${parent.title ?? 'value'} ${JSON.stringify(error.data)}; expected one of ${(params.allowedValues as unknown[]).join(', ')}`);
    case 'pattern':
      return describePattern(error, path);
    case 'minItems':
      return at(params.limit === 1 ? 'expected a non-empty list' : `expected at least ${params.limit} items`);
    case 'minLength':
      return at(params.limit === 1 ? 'expected a non-empty string' : `expected at least ${params.limit} characters`);
    case 'minimum':
      return at(`expected a number of at least ${params.limit}`);
    case 'uniqueItems': {
      const index = Math.max(params.i as number, params.j as number);
      return at(`duplicate item ${JSON.stringify((error.data as unknown[])[index])}`, [index]);
    }
    default:
      return at(error.message ?? `invalid value (${error.keyword})`);
  }
}

function describePattern(error: ErrorObject, path: (string | number)[]): ValidationIssue {
  const pattern = (error.params as { pattern: string }).pattern;
  const expected = PATTERN_HINTS[pattern] ?? `a value matching ${pattern}`;
  if (error.propertyName !== undefined) {
    const title = (error.parentSchema as { title?: string }).title ?? 'key';
    const message = `invalid ${title} "${error.propertyName}"; expected ${expected}`;
    return { path: [...path, error.propertyName], message, atKey: true, keyword: 'propertyNames' };
  }
  const what = typeof path[path.length - 1] === 'string' ? `${path[path.length - 1]} ` : '';
  return { path, message: `invalid ${what}${JSON.stringify(error.data)}; expected ${expected}`, atKey: false, keyword: 'pattern' };
}

function describeTypes(type: unknown): string {
  const types = Array.isArray(type) ? type : String(type).split(',');
  return types.map((name: string) => TYPE_NAMES[name] ?? name).join(' or ');
}

function unknownKeyMessage(key: string, allowed: string[]): string {
  const close = closestName(key, allowed);
  if (close) return `unknown key "${key}"; did you mean "${close}"?`;
  return `unknown key "${key}"; expected one of ${allowed.join(', ')}`;
}
