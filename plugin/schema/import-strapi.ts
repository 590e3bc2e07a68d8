/**
 * Converts a Strapi v4 app's schema files into this package's YAML schema folder: the same keys,
 * one YAML file per content type and component, each with a modeline pointing editors at the
 * shipped JSON Schema. What cannot be carried over (attributes aimed at types that will not exist,
 * keys the format does not know) is dropped and reported, never silently.
 */
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { stringify } from 'yaml';
import { FILE_UID } from './registry.js';
import { schemaFilePath, type SchemaFileKind } from './schema-files.js';
import { ROLE_UID, stockUsersPermissionsSchema, USER_UID, type StrapiSchemaJson } from './users-permissions.js';
import { validateDocument } from './validate.js';

/** One change the importer made to a document, or one problem it left in it. */
export interface ImportChange {
  /** The written file, relative to the output folder: `content-types/role.yaml`. */
  readonly file: string;
  /** Where in the document: `['attributes', 'permissions']`. */
  readonly path: readonly (string | number)[];
  readonly reason: string;
  /** For additions: the value written. */
  readonly value?: unknown;
}

/** One file the importer wrote. */
export interface ImportedFile {
  /** Relative to the output folder. */
  readonly file: string;
  /** Where it came from: a path relative to the app folder, or the stock users-permissions schema. */
  readonly source: string;
}

/** What importStrapiApp wrote, added, dropped, and what still does not validate. */
export interface ImportReport {
  readonly written: readonly ImportedFile[];
  readonly dropped: readonly ImportChange[];
  readonly added: readonly ImportChange[];
  /** What still does not validate after the drops; `content-api check` shows the same. */
  readonly problems: readonly ImportChange[];
}

/** The report while it is being filled. */
interface ReportDraft {
  written: ImportedFile[];
  dropped: ImportChange[];
  added: ImportChange[];
  problems: ImportChange[];
}

/** A Strapi schema found in the app, before conversion. */
interface StrapiSchema {
  kind: SchemaFileKind;
  /** The Strapi uid (`api::article.article`) or component uid (`shared.seo`). */
  uid: string;
  source: string;
  /** Output path relative to the output folder. */
  file: string;
  json: StrapiSchemaJson;
}

/**
 * Convert `<appDir>/src` into `<outDir>/content-types` and `<outDir>/components`.
 * @throws when a Strapi schema file is not valid JSON, or two schemas would be written to one file.
 */
export async function importStrapiApp(appDir: string, outDir: string, progress?: (done: number, total: number, file: string) => void): Promise<ImportReport> {
  const schemas = [...(await readContentTypes(appDir)), ...(await readComponents(appDir))];
  if (!schemas.length) throw new Error(`no Strapi schema found in ${join(appDir, 'src')} (expected api/*/content-types/*/schema.json)`);
  if (schemas.some(refersToUsersPermissions)) {
    schemas.push(await readUsersPermissions(appDir, 'user'), await readUsersPermissions(appDir, 'role'));
  }
  const seen = new Set<string>();
  for (const schema of schemas) {
    if (seen.has(schema.file)) throw new Error(`two Strapi schemas would be written to ${schema.file}`);
    seen.add(schema.file);
  }
  const known = new Set([FILE_UID, ...schemas.filter((schema) => schema.kind === 'contentType').map((schema) => schema.uid)]);
  const report: ReportDraft = { written: [], dropped: [], added: [], problems: [] };
  for (const schema of schemas) {
    progress?.(report.written.length, schemas.length, schema.file);
    const document = convertSchema(schema, known, report);
    await writeSchemaFile(outDir, schema, document);
    report.written.push({ file: schema.file, source: schema.source });
  }
  progress?.(report.written.length, schemas.length, '');
  return report;
}

async function readContentTypes(appDir: string): Promise<StrapiSchema[]> {
  const schemas: StrapiSchema[] = [];
  for (const api of await listFolders(join(appDir, 'src', 'api'))) {
    for (const name of await listFolders(join(appDir, 'src', 'api', api, 'content-types'))) {
      const source = `src/api/${api}/content-types/${name}/schema.json`;
      const json = await readJson(appDir, source);
      if (!json) continue;
      schemas.push({ kind: 'contentType', uid: `api::${api}.${name}`, source, file: contentTypeFile(json, name), json });
    }
  }
  return schemas;
}

async function readComponents(appDir: string): Promise<StrapiSchema[]> {
  const schemas: StrapiSchema[] = [];
  for (const category of await listFolders(join(appDir, 'src', 'components'))) {
    const names = (await readdir(join(appDir, 'src', 'components', category))).filter((name) => name.endsWith('.json')).sort();
    for (const name of names) {
      const source = `src/components/${category}/${name}`;
      const json = (await readJson(appDir, source)) as StrapiSchemaJson;
      const stem = name.slice(0, -'.json'.length);
      schemas.push({ kind: 'component', uid: `${category}.${stem}`, source, file: `components/${category}/${stem}.yaml`, json });
    }
  }
  return schemas;
}

/** The app's own override under src/extensions, else Strapi's stock schema. */
async function readUsersPermissions(appDir: string, name: 'user' | 'role'): Promise<StrapiSchema> {
  const override = `src/extensions/users-permissions/content-types/${name}/schema.json`;
  const json = await readJson(appDir, override);
  return {
    kind: 'contentType',
    uid: name === 'user' ? USER_UID : ROLE_UID,
    source: json ? override : `stock users-permissions ${name} (Strapi 4.26.2)`,
    file: contentTypeFile(json ?? stockUsersPermissionsSchema(name), name),
    json: json ?? stockUsersPermissionsSchema(name),
  };
}

function refersToUsersPermissions(schema: StrapiSchema): boolean {
  return Object.values(attributesOf(schema.json)).some((attribute) => attribute.target === USER_UID || attribute.target === ROLE_UID);
}

/** `content-types/<singularName>.yaml`, or the Strapi folder name when the singular name is unusable. */
function contentTypeFile(json: StrapiSchemaJson, folder: string): string {
  const singular = (json.info as { singularName?: unknown } | undefined)?.singularName;
  const name = typeof singular === 'string' && /^[a-z][a-z0-9-]*$/.test(singular) ? singular : folder;
  return `content-types/${name}.yaml`;
}

/**
 * The YAML document for one Strapi schema: the explicit uid and kind where Strapi implies them,
 * minus attributes aimed at types that will not exist, minus keys the format does not know.
 */
function convertSchema(schema: StrapiSchema, known: Set<string>, report: ReportDraft): StrapiSchemaJson {
  let document = schema.json;
  if (schema.kind === 'contentType') document = addImpliedKeys(schema, document, report.added);
  const attributes = attributesOf(document);
  for (const [name, attribute] of Object.entries(attributes)) {
    if (typeof attribute.target === 'string' && !known.has(attribute.target)) {
      delete attributes[name];
      report.dropped.push({ file: schema.file, path: ['attributes', name], reason: `target ${attribute.target} is not part of the imported schema` });
    }
  }
  for (const issue of validateDocument(schema.kind, document)) {
    if (issue.keyword !== 'additionalProperties') continue;
    deleteAt(document, issue.path);
    report.dropped.push({ file: schema.file, path: issue.path, reason: `${issue.message.split(';')[0]} in this schema format` });
  }
  for (const issue of validateDocument(schema.kind, document)) {
    report.problems.push({ file: schema.file, path: issue.path, reason: issue.message });
  }
  return document;
}

/** Strapi defaults `kind` to collectionType and derives the uid from folder names; the YAML says both. */
function addImpliedKeys(schema: StrapiSchema, json: StrapiSchemaJson, added: ImportChange[]): StrapiSchemaJson {
  const info = json.info as { singularName?: unknown } | undefined;
  const implied: StrapiSchemaJson = {};
  if (schema.uid !== `api::${info?.singularName}.${info?.singularName}`) {
    implied.uid = schema.uid;
    added.push({ file: schema.file, path: ['uid'], value: schema.uid, reason: `Strapi's uid for this type is not api::${info?.singularName}.${info?.singularName}` });
  }
  if (json.kind === undefined) {
    implied.kind = 'collectionType';
    added.push({ file: schema.file, path: ['kind'], value: 'collectionType', reason: "Strapi's default kind" });
  }
  return { ...implied, ...json };
}

function attributesOf(json: StrapiSchemaJson): Record<string, Record<string, unknown>> {
  const attributes = json.attributes;
  return attributes && typeof attributes === 'object' ? (attributes as Record<string, Record<string, unknown>>) : {};
}

function deleteAt(document: StrapiSchemaJson, path: readonly (string | number)[]): void {
  let node: unknown = document;
  for (const step of path.slice(0, -1)) node = (node as Record<string | number, unknown>)[step];
  if (node && typeof node === 'object') delete (node as Record<string | number, unknown>)[path[path.length - 1]];
}

async function writeSchemaFile(outDir: string, schema: StrapiSchema, document: StrapiSchemaJson): Promise<void> {
  const target = join(outDir, schema.file);
  await mkdir(dirname(target), { recursive: true });
  const schemaPath = relative(dirname(target), schemaFilePath(schema.kind)).split(sep).join('/');
  await writeFile(target, `# yaml-language-server: $schema=${schemaPath}\n${stringify(document, { lineWidth: 0 })}`);
}

async function listFolders(path: string): Promise<string[]> {
  try {
    const entries = await readdir(path, { withFileTypes: true });
    return entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name).sort();
  } catch {
    return [];
  }
}

/** The parsed JSON file, or null when it does not exist. */
async function readJson(appDir: string, file: string): Promise<StrapiSchemaJson | null> {
  let text: string;
  try {
    text = await readFile(join(appDir, file), 'utf8');
  } catch {
    return null;
  }
  try {
    return JSON.parse(text) as StrapiSchemaJson;
  } catch (error) {
    throw new Error(`${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
}
