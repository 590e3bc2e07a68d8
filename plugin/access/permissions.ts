/**
 * permissions.yaml: roles, what each may read and write, and API tokens.
 *
 *   roles:
 *     public:
 *       article: [find, findOne]       # a type by singularName, pluralName or uid
 *       file: [find]                   # the media file type: needed to populate media
 *                                      # (and findOne, upload, destroy: the upload routes)
 *     editor:
 *       article: [find, findOne, preview, create, update, delete]
 *       locale: [find]                 # GET /i18n/locales (Strapi's plugin::i18n.locales.listLocales)
 *       folder: [find, findOne]        # GraphQL's uploadFolders and uploadFolder
 *   tokens:
 *     - { name: ci, role: editor, hash: "sha256:…", expiresAt: 2027-01-01T00:00:00Z }
 *
 * Every problem is reported with file, path, line and column, all at once. An empty file is a
 * problem too: it is what a truncated save or a slip of the hand leaves, and read as "no roles"
 * it would close the API. An API closed on purpose says `roles: {}`.
 */
import type { Model, Registry } from '../schema/registry.js';
import { SchemaError, type SchemaProblem } from '../schema/problems.js';
import { parseYamlSource, readOptionalFile, type YamlSource } from '../schema/yaml-source.js';
import { isTokenHash, type TokenRecord } from './tokens.js';
import { parseActionRule, UNCONDITIONAL, type ActionRule } from './action-rules.js';

export type Action = 'find' | 'findOne' | 'preview' | 'create' | 'update' | 'delete' | FileAction;
/** The media library's own actions (Strapi's `plugin::upload.content-api.upload` and `.destroy`), on `file` only. */
export type FileAction = 'upload' | 'destroy';
const ACTIONS: ReadonlySet<string> = new Set<Action>(['find', 'findOne', 'preview', 'create', 'update', 'delete', 'upload', 'destroy']);
const FILE_ACTIONS: ReadonlySet<string> = new Set<FileAction>(['upload', 'destroy']);

export interface Permissions {
  /** role → model uid → the actions granted, each with its rule */
  readonly roles: ReadonlyMap<string, ReadonlyMap<string, ReadonlyMap<Action, ActionRule>>>;
  readonly tokens: readonly TokenRecord[];
}

/** What a role may do; unknown roles may do nothing. */
export interface Grants {
  readonly role: string;
  can(uid: string, action: Action): boolean;
  /** The rule of a granted action (rows, forced values, fields); null when not granted. */
  rule(uid: string, action: Action): ActionRule | null;
}

export function grantsFor(permissions: Permissions, role: string): Grants {
  const types = permissions.roles.get(role);
  return { role, can: (uid, action) => types?.get(uid)?.has(action) === true, rule: (uid, action) => types?.get(uid)?.get(action) ?? null };
}

/** No roles and no tokens: every public request is a 403 and every token a 401. */
export const CLOSED_API: Permissions = Object.freeze({ roles: new Map(), tokens: [] });

/** The permissions file was not found where it is required. */
export class PermissionsFileMissing extends Error {
  constructor(
    readonly file: string,
    message: string,
  ) {
    super(message);
    this.name = 'PermissionsFileMissing';
  }
}

/** The permissions file read and checked against the schema; null when there is no such file (the caller decides what that means). */
export async function loadPermissions(file: string, displayName: string, registry: Registry): Promise<Permissions | null> {
  const text = await readOptionalFile(file);
  if (text === null) return null;
  return parsePermissions(text, displayName, registry);
}

export function parsePermissions(text: string, file: string, registry: Registry): Permissions {
  const source = parseYamlSource(file, text);
  const form = formProblems(source);
  if (form.length || !isObject(source.data)) throw new SchemaError(form);
  const problems: SchemaProblem[] = [];
  // A problem about a key (an unknown type, an unknown key) points at the key; others at the value.
  const report: Report = (path, message, atKey = false) => {
    problems.push({ ...source.locate(path, atKey), path: path.join('.'), message });
  };
  const data = source.data;
  for (const key of Object.keys(data)) if (key !== 'roles' && key !== 'tokens') report([key], `unknown key "${key}"; expected roles or tokens`, true);
  const roles = parseRoles(data.roles, registry, report);
  const tokens = parseTokens(data.tokens, roles, report);
  if (problems.length) throw new SchemaError([...problems].sort((a, b) => a.line - b.line || a.column - b.column));
  return { roles, tokens };
}

/**
 * The problems of the file's form alone (YAML syntax, an empty file, not a map): what can be
 * checked when no schema loaded to check its names against.
 */
export function permissionsFormProblems(text: string, file: string): readonly SchemaProblem[] {
  return formProblems(parseYamlSource(file, text));
}

function formProblems(source: YamlSource): SchemaProblem[] {
  if (source.problems.length) return [...source.problems];
  if (source.data === null || source.data === undefined) {
    return [{ file: source.file, path: '', line: 1, column: 1, message: 'the file is empty; an API closed to every caller says "roles: {}"' }];
  }
  if (!isObject(source.data)) return [{ ...source.locate([]), path: '', message: 'expected a map with roles and tokens' }];
  return [];
}

type Report = (path: (string | number)[], message: string, atKey?: boolean) => void;

/** Resolves a content type named by uid, singularName or pluralName (the media file type included). */
export function typeResolver(registry: Registry): (name: string) => string | null {
  const names = new Map<string, string>();
  for (const model of [...registry.contentTypes, registry.file]) {
    names.set(model.uid, model.uid);
    names.set(model.singularName, model.uid);
    if (model.pluralName) names.set(model.pluralName, model.uid);
  }
  return (name) => names.get(name) ?? null;
}

const ACTION_LIST = 'find, findOne, preview, create, update, delete';

/**
 * The i18n locales (`GET /i18n/locales`): granted as `find` on `locale`, `locales` or their uid,
 * as Strapi's `plugin::i18n.locales.listLocales` is. A content type of the schema named `locale`
 * keeps that name; the uid still names the locales.
 */
export const LOCALE_UID = 'plugin::i18n.locale';
const LOCALE_NAMES: ReadonlySet<string> = new Set([LOCALE_UID, 'locale', 'locales']);

/**
 * The upload folders (GraphQL's `uploadFolders` and `uploadFolder`): granted as `find` and
 * `findOne` on `folder`, `folders` or their uid, as Strapi's `plugin::upload.folder.find` and
 * `.findOne` are (which only a full-access API token holds there).
 */
export const FOLDER_UID = 'plugin::upload.folder';
const FOLDER_NAMES: ReadonlySet<string> = new Set([FOLDER_UID, 'folder', 'folders']);

/** Strapi's own types granted by name (no schema file declares them), their actions, and why a grant is refused. */
const STOCK_TYPES: readonly { uid: string; names: ReadonlySet<string>; actions: readonly Action[]; expected: string }[] = [
  { uid: LOCALE_UID, names: LOCALE_NAMES, actions: ['find'], expected: 'expected [find]: the locales are listed to a role whose grant holds find, and take no rule' },
  { uid: FOLDER_UID, names: FOLDER_NAMES, actions: ['find', 'findOne'], expected: 'expected [find, findOne]: the upload folders take no rule' },
];

/** The actions of one of Strapi's own types: a list of them, or a map of them to `true`. */
function parseStockActions(raw: unknown, allowed: readonly Action[], expected: string, at: (string | number)[], report: Report): Map<Action, ActionRule> {
  const entries: [unknown, unknown][] = Array.isArray(raw) ? raw.map((action) => [action, true]) : isObject(raw) ? Object.entries(raw) : [];
  if (!entries.length && !(Array.isArray(raw) || isObject(raw))) report(at, expected);
  const granted = new Map<Action, ActionRule>();
  entries.forEach(([action, value], index) => {
    const known = allowed.includes(action as Action);
    if (known && value === true) granted.set(action as Action, UNCONDITIONAL);
    else report(Array.isArray(raw) ? [...at, index] : [...at, String(action)], expected, !Array.isArray(raw) && !known);
  });
  return granted;
}

/** Why `action` cannot be granted on `model`, or null when it can. */
function actionProblem(action: unknown, model: Model | null, registry: Registry): string | null {
  if (typeof action !== 'string' || !ACTIONS.has(action)) return `unknown action ${JSON.stringify(action)}; expected ${ACTION_LIST.replace(/, (?=\w+$)/, ' or ')} (and on file: upload, destroy)`;
  if (FILE_ACTIONS.has(action) && model && model.uid !== registry.file.uid) return `"${action}" is an action on file (the media library) only`;
  return null;
}

function parseRoles(raw: unknown, registry: Registry, report: Report): Map<string, Map<string, Map<Action, ActionRule>>> {
  const roles = new Map<string, Map<string, Map<Action, ActionRule>>>();
  if (raw === undefined || raw === null) return roles;
  if (!isObject(raw)) {
    report(['roles'], 'expected a map of role names');
    return roles;
  }
  const resolve = typeResolver(registry);
  for (const [role, types] of Object.entries(raw)) {
    const grants = new Map<string, Map<Action, ActionRule>>();
    roles.set(role, grants);
    if (types === null) continue;
    if (!isObject(types)) {
      report(['roles', role], 'expected a map of content types to lists of actions');
      continue;
    }
    for (const [type, actions] of Object.entries(types)) {
      const uid = resolve(type);
      const stock = uid ? undefined : STOCK_TYPES.find((candidate) => candidate.names.has(type));
      if (stock) {
        grants.set(stock.uid, parseStockActions(actions, stock.actions, stock.expected, ['roles', role, type], report));
        continue;
      }
      if (!uid) report(['roles', role, type], `unknown content type "${type}"`, true);
      const model = uid ? (registry.models.get(uid) ?? (uid === registry.file.uid ? registry.file : null)) : null;
      const granted = parseActions(actions, model, registry, ['roles', role, type], report);
      if (uid && granted) grants.set(uid, granted);
    }
  }
  return roles;
}

/** `[find, findOne]`, or a map of actions to `true` or their rule. */
function parseActions(raw: unknown, model: Model | null, registry: Registry, at: (string | number)[], report: Report): Map<Action, ActionRule> | null {
  const granted = new Map<Action, ActionRule>();
  if (Array.isArray(raw)) {
    raw.forEach((action, index) => {
      const problem = actionProblem(action, model, registry);
      if (problem) report([...at, index], problem);
      else granted.set(action as Action, UNCONDITIONAL);
    });
    return granted;
  }
  if (!isObject(raw)) {
    report(at, `expected a list of actions (${ACTION_LIST}), or a map of actions to their rules`);
    return null;
  }
  for (const [action, value] of Object.entries(raw)) {
    const problem = actionProblem(action, model, registry);
    if (problem) {
      report([...at, action], problem, true);
      continue;
    }
    const rule = parseActionRule(value, action as Action, model, registry, [...at, action], report);
    if (rule) granted.set(action as Action, rule);
  }
  return granted;
}

function parseTokens(raw: unknown, roles: Map<string, unknown>, report: Report): TokenRecord[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) {
    report(['tokens'], 'expected a list of tokens');
    return [];
  }
  const tokens: TokenRecord[] = [];
  raw.forEach((entry, index) => {
    const at = (key: string, message: string) => report(['tokens', index, key], message);
    if (!isObject(entry)) return report(['tokens', index], 'expected { name, role, hash, expiresAt?, claims? }');
    if (typeof entry.name !== 'string' || !entry.name) return at('name', 'expected the token name');
    if (typeof entry.role !== 'string' || !roles.has(entry.role)) return at('role', `expected one of the roles: ${[...roles.keys()].join(', ')}`);
    if (typeof entry.hash !== 'string' || !isTokenHash(entry.hash)) return at('hash', 'expected a hash written by `content-api token create`');
    let expiresAt: number | null = null;
    if (entry.expiresAt !== undefined && entry.expiresAt !== null) {
      expiresAt = entry.expiresAt instanceof Date ? entry.expiresAt.getTime() : Date.parse(String(entry.expiresAt));
      if (Number.isNaN(expiresAt)) return at('expiresAt', 'expected an ISO-8601 date');
    }
    if (entry.claims !== undefined && !isObject(entry.claims)) return at('claims', 'expected a map of claim names to values, read by row rules as $claims.<name>');
    tokens.push({ name: entry.name, role: entry.role, hash: entry.hash, expiresAt, ...(entry.claims ? { claims: Object.freeze({ ...entry.claims }) } : {}) });
  });
  return tokens;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);
}
