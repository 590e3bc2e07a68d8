/**
 * What a role may do with an action beyond "all of the type": a rule per row (`where`, in the
 * API's own filter language, with variables of the caller), values forced onto written entries
 * (`set`), and the attributes it may read or write (`fields: { only | except }`).
 *
 *   article:
 *     find: { where: { featured: true }, fields: { except: [internalNotes] } }
 *     update: { where: { author: { id: { $eq: $user.id } } }, fields: { only: [title, body] } }
 *     create: { set: { author: $user.id } }
 *
 * Parsed once, when permissions.yaml loads: names are checked against the schema there, with
 * file, line and column; a request only binds the caller's values.
 */
import { ValidationError } from '../errors.js';
import { looksLikeVariable, parseVariable } from '../query/caller-variable.js';
import { parseFilters } from '../query/parse-filters.js';
import { isPlainObject } from '../query/path.js';
import type { Filter } from '../query/tree.js';
import type { Model, Registry } from '../schema/registry.js';
import type { Action } from './permissions.js';

/** Which attributes an action may read or write: those listed (`only`), or all but those (`except`). */
export interface FieldRule {
  readonly mode: 'only' | 'except';
  readonly names: ReadonlySet<string>;
}

export interface ActionRule {
  /** The rows the action reaches (a created entry must match it); null: every row. */
  readonly where: Filter | null;
  /** Attribute values forced onto the written entry (create, update); variables bound per request. */
  readonly set: ReadonlyMap<string, unknown> | null;
  readonly fields: FieldRule | null;
  /** The `where` as written (variables as `$…`), for `content-api permissions`. */
  readonly whereText?: string;
}

/** An action granted without conditions. */
export const UNCONDITIONAL: ActionRule = Object.freeze({ where: null, set: null, fields: null });

/** Whether the rule lets the action read or write the attribute `name`. */
export function allowsField(rule: ActionRule | null | undefined, name: string): boolean {
  const fields = rule?.fields;
  if (!fields) return true;
  return fields.mode === 'only' ? fields.names.has(name) : !fields.names.has(name);
}

type Report = (path: (string | number)[], message: string, atKey?: boolean) => void;

const KEYS_OF: Record<string, readonly string[]> = {
  find: ['where', 'fields'],
  findOne: ['where', 'fields'],
  preview: ['where'],
  create: ['where', 'set', 'fields'],
  update: ['where', 'set', 'fields'],
  delete: ['where'],
  // On files: the files a caller may replace or change the information of, and delete; new files must match `upload`'s too.
  upload: ['where'],
  destroy: ['where'],
};

/**
 * The rule of one action written as a map (`true` grants it without conditions). Problems are
 * reported at `at` + their path; null when it has any.
 */
export function parseActionRule(raw: unknown, action: Action, model: Model | null, registry: Registry, at: (string | number)[], report: Report): ActionRule | null {
  if (raw === true) return UNCONDITIONAL;
  const keys = KEYS_OF[action] ?? [];
  if (!isPlainObject(raw) || !keys.length) {
    report(at, keys.length ? `expected true or a map of ${keys.join(', ')}` : 'expected true: this action takes no rule');
    return null;
  }
  let failed = false;
  const fail: Report = (path, message, atKey) => {
    failed = true;
    report(path, message, atKey);
  };
  for (const key of Object.keys(raw)) {
    if (!keys.includes(key)) fail([...at, key], `unknown key "${key}" for ${action}; expected ${keys.join(', ')}`, true);
  }
  if (!model) return null;
  const where = raw.where === undefined ? null : parseWhere(raw.where, model, registry, [...at, 'where'], fail);
  const whereText = raw.where === undefined ? {} : { whereText: JSON.stringify(raw.where) };
  const set = raw.set === undefined ? null : parseSet(raw.set, model, [...at, 'set'], fail);
  const fields = raw.fields === undefined ? null : parseFieldRule(raw.fields, model, [...at, 'fields'], fail);
  return failed ? null : Object.freeze({ where, set, fields, ...whereText });
}

/** A filter as `filters` takes it, with `$user.…`, `$claims.…` and `$now` allowed as values. */
function parseWhere(raw: unknown, model: Model, registry: Registry, at: (string | number)[], report: Report): Filter | null {
  let misspelt = false;
  const withVariables = variablesIn(raw, at, (path, message, atKey) => {
    misspelt = true;
    report(path, message, atKey);
  });
  // A misspelt variable is left as text, which the filter would only report again.
  if (misspelt) return null;
  try {
    return parseFilters(model, withVariables, '', registry);
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    report([...at, ...pathSegments(error.path)], error.message.replace(/ \(at [^)]*\)$/, ''));
    return null;
  }
}

/** The rule's values with each `$…` text replaced by its variable; a misspelt variable is a problem. */
function variablesIn(raw: unknown, at: (string | number)[], report: Report): unknown {
  if (typeof raw === 'string' && looksLikeVariable(raw)) {
    const variable = parseVariable(raw);
    if (!variable) report(at, `unknown variable ${raw}; expected $user.<field>, $claims.<name> or $now`);
    return variable ?? raw;
  }
  if (Array.isArray(raw)) return raw.map((item, index) => variablesIn(item, [...at, index], report));
  if (isPlainObject(raw)) return Object.fromEntries(Object.entries(raw).map(([key, value]) => [key, variablesIn(value, [...at, key], report)]));
  return raw;
}

/** `filters.$or[1].title` → `['filters', '$or', 1, 'title']`, to point at the YAML. */
function pathSegments(path: string): (string | number)[] {
  const segments: (string | number)[] = [];
  for (const match of path.matchAll(/([^.[\]]+)|\[(\d+)\]/g)) segments.push(match[2] !== undefined ? Number(match[2]) : match[1]!);
  return segments;
}

function parseSet(raw: unknown, model: Model, at: (string | number)[], report: Report): ReadonlyMap<string, unknown> | null {
  if (!isPlainObject(raw)) {
    report(at, 'expected a map of attribute names to values, e.g. { author: $user.id }');
    return null;
  }
  const set = new Map<string, unknown>();
  for (const [name, value] of Object.entries(raw)) {
    const attribute = model.attributes.get(name);
    if (!attribute || attribute.kind === 'morph' || attribute.kind === 'internal') {
      report([...at, name], `unknown attribute "${name}" of ${model.uid}`, true);
      continue;
    }
    set.set(name, variablesIn(value, [...at, name], report));
  }
  return set;
}

function parseFieldRule(raw: unknown, model: Model, at: (string | number)[], report: Report): FieldRule | null {
  const modes = isPlainObject(raw) ? Object.keys(raw) : [];
  if (!isPlainObject(raw) || modes.length !== 1 || (modes[0] !== 'only' && modes[0] !== 'except')) {
    report(at, 'expected { only: [names] } or { except: [names] }');
    return null;
  }
  const mode = modes[0] as 'only' | 'except';
  const list = raw[mode];
  if (!Array.isArray(list)) {
    report([...at, mode], 'expected a list of attribute names');
    return null;
  }
  const names = new Set<string>();
  list.forEach((name, index) => {
    if (typeof name === 'string' && model.attributes.has(name)) names.add(name);
    else report([...at, mode, index], `unknown attribute ${JSON.stringify(name)} of ${model.uid}`);
  });
  return { mode, names };
}

/**
 * The rule a write's answer is read under: every row (the caller just wrote it), without the
 * attributes the role's read rules on the type (find, findOne) deny.
 */
export function writtenEntryRule(model: Model, grants: { rule(uid: string, action: Action): ActionRule | null }): ActionRule {
  const rules = (['find', 'findOne'] as const).map((action) => grants.rule(model.uid, action));
  const denied = new Set([...model.attributes.keys()].filter((name) => rules.some((rule) => !allowsField(rule, name))));
  return denied.size ? { where: null, set: null, fields: { mode: 'except', names: denied } } : UNCONDITIONAL;
}
