/**
 * Loads a schema folder: `content-types/*.yaml` and `components/<category>/<name>.yaml`. Each file
 * is parsed with its positions, validated against the shipped JSON Schema, and the valid ones are
 * normalized together (cross-file checks). Every problem of every file is reported at once, in
 * one SchemaError, so an author fixes a whole schema in one round.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ComponentDocument, ContentTypeDocument, LoadedComponent, LoadedContentType } from './document.js';
import { normalizeSchema } from './normalize.js';
import { SchemaError, type SchemaProblem } from './problems.js';
import type { Registry } from './registry.js';
import type { SchemaFileKind } from './schema-files.js';
import { validateDocument, type ValidationIssue, type YamlPath } from './validate.js';
import { parseYamlSource, type YamlSource } from './yaml-source.js';

/** Options of loadSchema. */
export interface LoadOptions {
  /** The i18n default locale (`en` unless told). */
  defaultLocale?: string;
}

/** A schema file found in the folder, before it is read. */
interface SchemaFile {
  kind: 'contentType' | 'component';
  /** Relative to the root, with forward slashes: `components/shared/seo.yaml`. */
  file: string;
  /** For components: `<category>.<name>`. */
  uid: string | null;
}

const YAML_FILE = /\.ya?ml$/;
const COMPONENT_NAME = /^[a-z][a-z0-9-]*$/;

/**
 * Load and validate the schema under `root` into a frozen registry.
 * @throws SchemaError with every problem found, sorted by file, line and column.
 */
export async function loadSchema(root: string, options: LoadOptions = {}): Promise<Registry> {
  const problems: SchemaProblem[] = [];
  const files = await listSchemaFiles(root, problems);
  const sources = await Promise.all(files.map((entry) => readSource(root, entry)));
  const contentTypes: LoadedContentType[] = [];
  const components: LoadedComponent[] = [];
  // What the files left out would have declared: references to them are not reported again.
  const missingNames = new Set<string>();
  for (const [index, source] of sources.entries()) {
    const entry = files[index];
    const issues = source.problems.length ? [] : validateDocument(entry.kind, source.data);
    problems.push(...source.problems);
    for (const issue of issues) {
      const position = source.locate(issue.path, issue.atKey);
      problems.push({ ...position, path: issue.path.join('.'), message: issue.message });
    }
    // A file whose problems are confined to some attributes (or unknown keys) still takes part in
    // the cross-file checks without them, so its other problems are reported in the same run.
    const usable = source.problems.length ? null : usablePart(entry.kind, source.data, issues);
    if (!usable) {
      for (const name of declaredNames(entry, source.data)) missingNames.add(name);
      continue;
    }
    const loaded = { file: entry.file, locate: (path: YamlPath) => source.locate(path), invalidAttributes: usable.invalidAttributes };
    if (entry.kind === 'contentType') contentTypes.push({ ...loaded, kind: 'contentType', document: usable.document as ContentTypeDocument });
    else components.push({ ...loaded, kind: 'component', uid: entry.uid as string, document: usable.document as ComponentDocument });
  }
  try {
    const registry = normalizeSchema(contentTypes, components, options);
    if (!problems.length) return registry;
  } catch (error) {
    if (!(error instanceof SchemaError)) throw error;
    const loaded = [...contentTypes, ...components];
    problems.push(...error.problems.filter((problem) => !refersToMissing(problem, loaded, missingNames)));
  }
  throw new SchemaError(sortProblems(problems));
}

/** Find the schema files; folder-level problems (missing folder, misplaced or misnamed files) are collected. */
async function listSchemaFiles(root: string, problems: SchemaProblem[]): Promise<SchemaFile[]> {
  const folderProblem = (file: string, message: string) => problems.push({ file, path: '', line: 1, column: 1, message });
  const contentTypeNames = await listFolder(join(root, 'content-types'));
  if (!contentTypeNames) {
    folderProblem('content-types', `folder not found in ${root}; expected content-types/<name>.yaml files`);
    return [];
  }
  const files: SchemaFile[] = contentTypeNames
    .filter((name) => YAML_FILE.test(name))
    .map((name) => ({ kind: 'contentType', file: `content-types/${name}`, uid: null }));
  for (const category of (await listFolder(join(root, 'components'))) ?? []) {
    const names = await listFolder(join(root, 'components', category));
    if (!names) {
      if (YAML_FILE.test(category)) folderProblem(`components/${category}`, 'a component file belongs in a category folder: components/<category>/<name>.yaml');
      continue;
    }
    for (const name of names.filter((entry) => YAML_FILE.test(entry))) {
      const file = `components/${category}/${name}`;
      const stem = name.replace(YAML_FILE, '');
      if (!COMPONENT_NAME.test(category)) folderProblem(file, `invalid component category "${category}"; expected lowercase letters, digits and dashes, starting with a letter`);
      else if (!COMPONENT_NAME.test(stem)) folderProblem(file, `invalid component name "${stem}"; expected lowercase letters, digits and dashes, starting with a letter`);
      else files.push({ kind: 'component', file, uid: `${category}.${stem}` });
    }
  }
  return files;
}

/** The sorted entries of a folder, or null when it is not a folder. */
async function listFolder(path: string): Promise<string[] | null> {
  try {
    return (await readdir(path)).sort();
  } catch {
    return null;
  }
}

async function readSource(root: string, entry: SchemaFile): Promise<YamlSource> {
  try {
    return parseYamlSource(entry.file, await readFile(join(root, entry.file), 'utf8'));
  } catch (error) {
    const message = `cannot read the file: ${error instanceof Error ? error.message : String(error)}`;
    return { file: entry.file, data: null, problems: [{ file: entry.file, path: '', line: 1, column: 1, message }], locate: () => ({ file: entry.file, line: 1, column: 1 }) };
  }
}

/**
 * The document without its invalid attributes and unknown keys, when that is all that is wrong
 * with it (checked again, so what normalize reads has the shape it expects); null otherwise.
 */
function usablePart(kind: SchemaFileKind, data: unknown, issues: readonly ValidationIssue[]): { document: unknown; invalidAttributes: Set<string> } | null {
  const invalidAttributes = new Set<string>();
  if (!issues.length) return { document: data, invalidAttributes };
  const document = structuredClone(data) as Record<string, unknown>;
  for (const issue of issues) {
    const [head, name] = issue.path;
    if (head === 'attributes' && typeof name === 'string') {
      invalidAttributes.add(name);
    } else if (issue.keyword === 'additionalProperties') {
      const parent = issue.path.slice(0, -1).reduce<unknown>((node, step) => (node as Record<string | number, unknown> | undefined)?.[step], document);
      if (parent && typeof parent === 'object') delete (parent as Record<string, unknown>)[issue.path[issue.path.length - 1] as string];
    } else {
      return null;
    }
  }
  const attributes = document.attributes as Record<string, unknown> | undefined;
  for (const name of invalidAttributes) if (attributes) delete attributes[name];
  return validateDocument(kind, document).length ? null : { document, invalidAttributes };
}

/** The uids and names a file would have declared, as far as its (possibly broken) data tells. */
function declaredNames(entry: SchemaFile, data: unknown): string[] {
  if (entry.uid) return [entry.uid];
  const stem = entry.file.slice('content-types/'.length).replace(YAML_FILE, '');
  const document = (data ?? {}) as { uid?: unknown; info?: { singularName?: unknown } };
  const singular = typeof document.info?.singularName === 'string' ? document.info.singularName : stem;
  const names = [stem, `api::${stem}.${stem}`, singular, `api::${singular}.${singular}`];
  if (typeof document.uid === 'string') names.push(document.uid);
  return names;
}

/** Whether a cross-file problem only says that a reference points at a file that was left out. */
function refersToMissing(problem: SchemaProblem, loaded: (LoadedContentType | LoadedComponent)[], missing: Set<string>): boolean {
  const [head, name, key, index] = problem.path.split('.');
  if (head !== 'attributes') return false;
  const attribute = loaded.find((entry) => entry.file === problem.file)?.document.attributes[name];
  if (!attribute) return false;
  if (key === 'target' && attribute.type === 'relation') return missing.has(attribute.target);
  if (key === 'component' && attribute.type === 'component') return missing.has(attribute.component);
  if (key === 'components' && attribute.type === 'dynamiczone') return missing.has(attribute.components[Number(index)]);
  return false;
}

function sortProblems(problems: SchemaProblem[]): SchemaProblem[] {
  const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return [...problems].sort((a, b) => compare(a.file, b.file) || a.line - b.line || a.column - b.column);
}
