/**
 * A test data file: entries per content type, each keyed by a name, relations and media written
 * as the names of other entries. Checked against the schema before anything is written, scalar
 * values by the write API's own validators (so a file cannot hold what the API would refuse, and
 * no engine is left to reject it halfway through a load); every problem is reported at once with
 * file, line and column.
 *
 *   file:
 *     cover: { name: cover.jpg, url: /uploads/cover.jpg, mime: image/jpeg, ext: .jpg, hash: cover, size: 12.5 }
 *   category:
 *     food: { name: Food, slug: food }
 *   article:
 *     hello:
 *       title: Hello
 *       category: food                       # a relation: entry names of its target type
 *       headerImage: cover                   # media: names of file entries
 *       seo: { metaTitle: Hi }               # a component; repeatables and zones are lists
 *       blocks: [{ __component: shared.quote, body: Hi, category: food }]
 *       publishedAt: null                    # a draft; entries are published by default
 *     bonjour: { title: Bonjour, locale: fr, localizations: [hello] }   # linked both ways
 *     photo:
 *       headerImage: { file: ./images/a.jpg }  # media: a local file, uploaded (upload-files.ts)
 */
import { dirname, resolve } from 'node:path';
import { typeResolver } from '../access/permissions.js';
import type { SourcePosition } from '../schema/document.js';
import type { MediaAttribute, Model, Registry } from '../schema/registry.js';
import { modelOf } from '../schema/registry.js';
import { SchemaError, type SchemaProblem } from '../schema/problems.js';
import { parseYamlSource, type YamlSource } from '../schema/yaml-source.js';
import { fileAllowed } from '../write/check-references.js';
import { checkCount } from '../write/parse-data.js';
import { convertScalar, parseInstant } from '../write/scalar-convert.js';
import { compileScalarChecker, labelOf, type ScalarChecker } from '../write/scalar-values.js';
import { checkFileToUpload, isFileToUpload, type FileToUpload } from './upload-files.js';

/** Attribute values of one entry or component, as written in the file. */
export type Values = Readonly<Record<string, unknown>>;

export interface DataEntry {
  readonly model: Model;
  readonly name: string;
  /** As written, scalars (here and in components) converted to their stored form. */
  readonly values: Values;
  /** Where the entry's name is, for errors raised while it is written. */
  readonly position: SourcePosition;
}

export interface TestData {
  /** Every entry, in file order (files first, so media can point at them). */
  readonly entries: readonly DataEntry[];
}

type Path = (string | number)[];
type Report = (path: Path, message: string, atKey?: boolean) => void;

/** Parses and checks a data file; throws a SchemaError with every problem. */
export function parseTestData(text: string, file: string, registry: Registry, checker: ScalarChecker = compileScalarChecker(registry)): TestData {
  // A data file is the operator's own and may seed thousands of entries: only depth and aliases are limited.
  const source = parseYamlSource(file, text, { maxBytes: Infinity, maxNodes: Infinity });
  if (source.problems.length) throw new SchemaError(source.problems);
  const problems: SchemaProblem[] = [];
  // A problem about a name points at the key; a problem about a value, at the value.
  const report: Report = (path, message, atKey = false) => {
    problems.push({ ...source.locate(path, atKey), path: path.join('.'), message });
  };
  const read = readEntries(source, registry, report);
  const names = new Map<string, Set<string>>();
  for (const entry of read) {
    const known = names.get(entry.model.uid) ?? new Set<string>();
    if (known.has(entry.name)) report([typeKey(source, entry.model), entry.name], `two ${entry.model.uid} entries are named "${entry.name}"`, true);
    known.add(entry.name);
    names.set(entry.model.uid, known);
  }
  const mimes = new Map(read.filter((entry) => entry.model.uid === registry.file.uid).map((entry) => [entry.name, typeof entry.values.mime === 'string' ? entry.values.mime : null]));
  const entries = read.map((entry): DataEntry => {
    const at = [typeKey(source, entry.model), entry.name];
    // An entry saved as a draft is checked as the API checks a draft: required and minLength wait for publication.
    const draft = entry.model.draftAndPublish && entry.values.publishedAt === null;
    const context: CheckContext = { folder: dirname(resolve(file)), registry, names, mimes, checker, draft, report: (path, message, atKey) => report([...at, ...path], message, atKey) };
    return { ...entry, values: checkValues(context, entry.model, entry.values, []), position: source.locate(at, true) };
  });
  checkUnique(entries, (entry, path, message) => report([typeKey(source, entry.model), entry.name, ...path], message));
  if (problems.length) throw new SchemaError(problems.sort((a, b) => a.line - b.line || a.column - b.column));
  return { entries: [...entries.filter((entry) => entry.model.uid === registry.file.uid), ...entries.filter((entry) => entry.model.uid !== registry.file.uid)] };
}

/** The key the file used for a type (any of its names), for positions. */
function typeKey(source: YamlSource, model: Model): string {
  const data = source.data as Record<string, unknown>;
  return [model.uid, model.singularName, model.pluralName ?? ''].find((key) => key in data) ?? model.singularName;
}

type ReadEntry = Omit<DataEntry, 'position'>;

function readEntries(source: YamlSource, registry: Registry, report: Report): ReadEntry[] {
  const entries: ReadEntry[] = [];
  if (source.data === null || source.data === undefined) return entries;
  if (!isObject(source.data)) {
    report([], 'expected a map of content types to their entries');
    return entries;
  }
  const resolve = typeResolver(registry);
  for (const [type, byName] of Object.entries(source.data)) {
    const uid = resolve(type);
    if (!uid) {
      report([type], `unknown content type "${type}"`, true);
      continue;
    }
    if (!isObject(byName)) {
      report([type], 'expected a map of entry names to attribute values');
      continue;
    }
    for (const [name, values] of Object.entries(byName)) {
      if (!isObject(values)) report([type, name], 'expected a map of attribute values');
      // What the upload plugin fills in for a file stored locally, at the media library's root.
      else if (uid === registry.file.uid) entries.push({ model: modelOf(registry, uid), name, values: { provider: 'local', folderPath: '/', ...values } });
      else entries.push({ model: modelOf(registry, uid), name, values });
    }
  }
  return entries;
}

interface CheckContext {
  /** The data file's folder: `{ file: ./a.jpg }` is relative to it. */
  readonly folder: string;
  readonly registry: Registry;
  readonly names: ReadonlyMap<string, ReadonlySet<string>>;
  /** The MIME type of each file entry, for media attributes that take only some kinds. */
  readonly mimes: ReadonlyMap<string, string | null>;
  readonly checker: ScalarChecker;
  readonly draft: boolean;
  /** Reports at a path relative to the entry. */
  readonly report: Report;
}

/** Checks one entry's or component's values (at `path` in the entry) and returns them with their scalars converted. */
function checkValues(context: CheckContext, model: Model, values: Values, path: Path): Values {
  const { registry, names, report } = context;
  const converted: Record<string, unknown> = { ...values };
  const scalars: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(values)) {
    const at = [...path, key];
    const attribute = model.attributes.get(key);
    if (key === '__component' && model.modelType === 'component') continue;
    if (!attribute || attribute.kind === 'internal' || attribute.kind === 'morph') {
      report(at, `${model.uid} has no attribute "${key}" that test data can set`, true);
      continue;
    }
    if (attribute.kind === 'scalar') {
      // The checker knows the attributes a body can write; timestamps and the locale, which only a data file sets, are checked here.
      if (!attribute.implicit || (attribute.name === 'publishedAt' && model.draftAndPublish)) scalars[key] = value;
      else if (attribute.name === 'locale') {
        if (typeof value !== 'string' || !value) report(at, `${labelOf(at)} must be a locale code, such as ${registry.i18n.defaultLocale}`);
      } else if (value !== null && !(typeof value === 'string' && parseInstant(value) !== null)) {
        report(at, `${labelOf(at)} must be an ISO date, or a date-time with Z or an offset`);
      } else if (value !== null) {
        converted[key] = convertScalar(attribute.type, value);
      }
      continue;
    }
    if (value === null) continue;
    if (attribute.kind === 'media' && hasFileToUpload(value)) {
      converted[key] = checkFilesToUpload(context, attribute, value, at);
    } else if (attribute.kind === 'relation' || attribute.kind === 'media') {
      const target = attribute.kind === 'relation' ? attribute.target : registry.file.uid;
      const list = typeof value === 'string' ? [value] : value;
      const toMany = attribute.kind === 'relation' ? attribute.toMany : attribute.multiple;
      if (!Array.isArray(list) || list.some((item) => typeof item !== 'string')) report(at, `expected the name of a ${target} entry${toMany ? ', or a list of names' : ''}`);
      else if (!toMany && list.length > 1) report(at, `${key} holds one ${target} entry`);
      else {
        for (const [index, item] of list.entries()) if (!names.get(target)?.has(item)) report(Array.isArray(value) ? [...at, index] : at, `no ${target} entry is named "${item}"`);
        const refused = attribute.kind === 'media' ? list.filter((item) => context.mimes.has(item) && !fileAllowed(attribute, context.mimes.get(item) ?? null)) : [];
        if (attribute.kind === 'media' && refused.length) report(at, `${labelOf(at)} takes ${attribute.allowedTypes!.join(', ')}; file ${refused.join(', ')} is not one`);
      }
    } else if (attribute.kind === 'component') {
      const component = modelOf(registry, attribute.component);
      const items = attribute.repeatable ? value : [value];
      if (!Array.isArray(items) || items.some((item) => !isObject(item))) report(at, attribute.repeatable ? 'expected a list of component values' : 'expected a map of component values');
      else {
        const checked = items.map((item, index) => checkValues(context, component, item as Values, attribute.repeatable ? [...at, index] : at));
        converted[key] = attribute.repeatable ? checked : checked[0];
        if (attribute.repeatable) countProblems(context, attribute, items.length, at);
      }
    } else if (attribute.kind === 'dynamiczone') {
      if (!Array.isArray(value)) report(at, 'expected a list of zone items, each with __component');
      else {
        converted[key] = value.map((item, index) => {
          const uid = isObject(item) ? item.__component : undefined;
          if (typeof uid !== 'string' || !attribute.components.includes(uid)) report([...at, index], `expected __component, one of ${attribute.components.join(', ')}`);
          else return checkValues(context, modelOf(registry, uid), item as Values, [...at, index]);
          return item;
        });
        countProblems(context, attribute, value.length, at);
      }
    }
  }
  checkRequiredParts(context, model, values, path);
  const checked = context.checker.check(model.uid, scalars, { partial: false, path, draft: context.draft });
  for (const problem of checked.problems) report([...problem.path], problem.message);
  return Object.assign(converted, checked.values);
}

/** Unique attributes (uids among them), as the API keeps them: one entry per value, in any locale and state. */
function checkUnique(entries: readonly DataEntry[], report: (entry: DataEntry, path: Path, message: string) => void): void {
  const seen = new Map<string, string>();
  for (const entry of entries) {
    for (const attribute of entry.model.attributes.values()) {
      const value = entry.values[attribute.name];
      if (attribute.kind !== 'scalar' || !attribute.unique || value === null || value === undefined) continue;
      const key = JSON.stringify([entry.model.uid, attribute.name, value instanceof Date ? value.toISOString() : String(value)]);
      const first = seen.get(key);
      if (first === undefined) seen.set(key, entry.name);
      else report(entry, [attribute.name], `${attribute.name} must be unique; entry "${first}" has the same value`);
    }
  }
}

/**
 * Required components and zones must be given, as the write API requires them (a draft only its
 * repeatable ones and zones). Required relations are not checked: a file may write a relation
 * from the other side.
 */
function checkRequiredParts(context: CheckContext, model: Model, values: Values, path: Path): void {
  for (const attribute of model.attributes.values()) {
    if ((attribute.kind !== 'component' && attribute.kind !== 'dynamiczone') || !attribute.required) continue;
    const many = attribute.kind === 'dynamiczone' || attribute.repeatable;
    if (context.draft && !many) continue;
    if (values[attribute.name] === undefined || values[attribute.name] === null) context.report([...path, attribute.name], `${labelOf([...path, attribute.name])} must be defined.`);
  }
}

function countProblems(context: CheckContext, attribute: Parameters<typeof checkCount>[0], count: number, path: Path): void {
  const problems: { path: readonly (string | number)[]; message: string }[] = [];
  checkCount(attribute, count, path, problems);
  for (const problem of problems) context.report([...problem.path], problem.message);
}

/** A media value that names a local file: `{ file: … }`, alone or among entry names in a list. */
function hasFileToUpload(value: unknown): boolean {
  return isFileToUpload(value) || (Array.isArray(value) && value.some(isFileToUpload));
}

/** The media value with each `{ file }` checked (the file exists and is readable) and resolved; names as for any media. */
function checkFilesToUpload(context: CheckContext, attribute: MediaAttribute, value: unknown, at: Path): (string | FileToUpload)[] {
  const list = Array.isArray(value) ? value : [value];
  if (!attribute.multiple && list.length > 1) context.report(at, `${attribute.name} holds one file`);
  return list.map((item, index) => {
    const path = Array.isArray(value) ? [...at, index] : at;
    if (typeof item === 'string') {
      if (!context.names.get(context.registry.file.uid)?.has(item)) context.report(path, `no ${context.registry.file.uid} entry is named "${item}"`);
      return item;
    }
    return checkFileToUpload(item, context.folder, (message) => context.report(path, message));
  });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
