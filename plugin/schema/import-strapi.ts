/**
 * Converts a Strapi v4 app's schema files into this package's YAML schema folder: the same keys,
 * one YAML file per content type and component, each with a modeline pointing editors at the
 * shipped JSON Schema. It takes what Strapi 4.26.2 boots: custom fields become the type they
 * store, and what Strapi ignores at boot (a `mappedBy` no owner answers, attributes aimed at types
 * that will not exist, keys the format does not know) is dropped. Every change is reported, never
 * made silently.
 */
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { stringify } from 'yaml';
import { resolveCustomFields, type CustomFieldChoices } from './import-custom-fields.js';
import { FILE_UID } from './registry.js';
import { schemaFilePath, type SchemaFileKind } from './schema-files.js';
import { readSchemaModule } from './schema-modules.js';
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

/** What importStrapiApp wrote, added, changed, dropped, and what still does not validate. */
export interface ImportReport {
  readonly written: readonly ImportedFile[];
  readonly dropped: readonly ImportChange[];
  readonly added: readonly ImportChange[];
  /** Values replaced: a custom field's `type` by the type it stores. */
  readonly changed: readonly ImportChange[];
  /** What still does not validate after the drops; `content-api check` shows the same. */
  readonly problems: readonly ImportChange[];
}

/** The report while it is being filled. */
interface ReportDraft {
  written: ImportedFile[];
  dropped: ImportChange[];
  added: ImportChange[];
  changed: ImportChange[];
  problems: ImportChange[];
}

/** A Strapi schema found in the app, before conversion. */
export interface StrapiSchema {
  kind: SchemaFileKind;
  /** The Strapi uid (`api::article.article`) or component uid (`shared.seo`). */
  uid: string;
  source: string;
  /** Output path relative to the output folder. */
  file: string;
  json: StrapiSchemaJson;
}

export interface ImportOptions extends CustomFieldChoices {
  /**
   * Add users-permissions' `user` and `role` even when no type refers to them: an app serving end
   * users (login, registration) through the `users` option needs them (`--users`).
   */
  users?: boolean;
  progress?: (done: number, total: number, file: string) => void;
}

/**
 * Convert `<appDir>/src` into `<outDir>/content-types` and `<outDir>/components`.
 * @throws when a Strapi schema file is not valid JSON, two schemas would be written to one file,
 *   or a custom field's stored type cannot be known (an ImportError naming the options that say it).
 */
export async function importStrapiApp(appDir: string, outDir: string, options: ImportOptions = {}): Promise<ImportReport> {
  const schemas = [...(await readContentTypes(appDir)), ...(await readPluginContentTypes(appDir)), ...(await readComponents(appDir))];
  if (!schemas.length) throw new Error(`no Strapi schema found in ${join(appDir, 'src')} (expected api/*/content-types/*/schema.json)`);
  const extendsUsersPermissions = (await listFolders(join(appDir, 'src', 'extensions', 'users-permissions', 'content-types'))).length > 0;
  if (options.users || extendsUsersPermissions || schemas.some(refersToUsersPermissions)) {
    schemas.push(await readUsersPermissions(appDir, 'user'), await readUsersPermissions(appDir, 'role'));
  }
  const seen = new Set<string>();
  for (const schema of schemas) {
    if (seen.has(schema.file)) throw new Error(`two Strapi schemas would be written to ${schema.file}`);
    seen.add(schema.file);
  }
  const report: ReportDraft = { written: [], dropped: [], added: [], changed: [], problems: [] };
  report.changed.push(...(await resolveCustomFields(appDir, schemas, options)));
  const byUid = new Map([...schemas].filter((schema) => schema.kind === 'contentType').map((schema) => [schema.uid, schema]));
  for (const schema of schemas) {
    options.progress?.(report.written.length, schemas.length, schema.file);
    const document = convertSchema(schema, byUid, report);
    await writeSchemaFile(outDir, schema, document);
    report.written.push({ file: schema.file, source: schema.source });
  }
  options.progress?.(report.written.length, schemas.length, '');
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

/**
 * Content types of the app's own plugins (`src/plugins/<plugin>/server/content-types`, as
 * schema.json or as a module exporting a plain object literal: schema-modules.ts), and of
 * installed plugins the app extends (`src/extensions/<plugin>/content-types`), as
 * `plugin::<plugin>.<name>`. The users-permissions types are read apart (their stock schemas
 * stand in when not extended); the media library's file type is built in.
 */
async function readPluginContentTypes(appDir: string): Promise<StrapiSchema[]> {
  const schemas: StrapiSchema[] = [];
  const add = async (plugin: string, folder: string) => {
    for (const name of await listFolders(join(appDir, folder))) {
      const jsonSource = `${folder}/${name}/schema.json`;
      const json = await readJson(appDir, jsonSource);
      // A plugin may write its types as modules (schema.js, index.js exporting { schema }).
      const found = json ? { source: jsonSource, json } : await readSchemaModule(appDir, `${folder}/${name}`);
      if (found) schemas.push({ kind: 'contentType', uid: `plugin::${plugin}.${name}`, source: found.source, file: contentTypeFile(found.json, name, plugin), json: found.json });
    }
  };
  for (const dir of await listFolders(join(appDir, 'src', 'plugins'))) {
    const plugin = (await pluginName(join(appDir, 'src', 'plugins', dir))) ?? dir;
    for (const server of ['server', 'server/src', 'dist/server']) await add(plugin, `src/plugins/${dir}/${server}/content-types`);
  }
  for (const plugin of await listFolders(join(appDir, 'src', 'extensions'))) {
    if (!BUILT_IN_PLUGINS.has(plugin)) await add(plugin, `src/extensions/${plugin}/content-types`);
  }
  return schemas;
}

/** Plugins whose content types are not imported from extensions: users-permissions is read apart, files are built in. */
const BUILT_IN_PLUGINS = new Set(['users-permissions', 'upload', 'i18n']);

/** The name Strapi knows a local plugin by: its package.json's `strapi.name`. */
async function pluginName(dir: string): Promise<string | null> {
  const manifest = (await readJson(dir, 'package.json')) as { strapi?: { name?: unknown } } | null;
  return typeof manifest?.strapi?.name === 'string' ? manifest.strapi.name : null;
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

/**
 * `content-types/<singularName>.yaml` (`<plugin>-<singularName>.yaml` for a plugin's own type),
 * or the Strapi folder name when the singular name is unusable.
 */
function contentTypeFile(json: StrapiSchemaJson, folder: string, plugin?: string): string {
  const singular = (json.info as { singularName?: unknown } | undefined)?.singularName;
  const name = typeof singular === 'string' && /^[a-z][a-z0-9-]*$/.test(singular) ? singular : folder;
  return `content-types/${plugin ? `${plugin}-` : ''}${name}.yaml`;
}

/**
 * The YAML document for one Strapi schema: the explicit uid and kind where Strapi implies them,
 * minus attributes Strapi serves nothing through, minus keys the format does not know.
 */
function convertSchema(schema: StrapiSchema, contentTypes: ReadonlyMap<string, StrapiSchema>, report: ReportDraft): StrapiSchemaJson {
  let document = schema.json;
  if (schema.kind === 'contentType') document = addImpliedKeys(schema, document, report.added);
  const attributes = attributesOf(document);
  for (const [name, attribute] of Object.entries(attributes)) {
    const reason = unservedRelation(schema, name, attribute, contentTypes);
    if (!reason) continue;
    delete attributes[name];
    report.dropped.push({ file: schema.file, path: ['attributes', name], reason });
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

/**
 * Why nothing is served through a relation attribute, or null when it is. A polymorphic relation
 * (plugins declare them; the content-type builder never does) is not served by this package. Its
 * target is not part of the import; or it says `mappedBy` and no owner names it back: Strapi gives such an
 * attribute no link table at boot, and then leaves it out of every answer.
 */
function unservedRelation(schema: StrapiSchema, name: string, attribute: Record<string, unknown>, contentTypes: ReadonlyMap<string, StrapiSchema>): string | null {
  if (typeof attribute.relation === 'string' && attribute.relation.startsWith('morph')) return `${attribute.relation} relations are not served by this package`;
  if (typeof attribute.target !== 'string') return null;
  const target = contentTypes.get(attribute.target);
  if (!target && attribute.target !== FILE_UID) return `target ${attribute.target} is not part of the imported schema`;
  if (!target || typeof attribute.mappedBy !== 'string' || schema.kind !== 'contentType') return null;
  const owner = attributesOf(target.json)[attribute.mappedBy];
  if (owner?.type === 'relation' && owner.target === schema.uid && owner.inversedBy === name) return null;
  const found = owner ? `${attribute.target}.${attribute.mappedBy} does not name it back with inversedBy` : `${attribute.target} has no attribute ${attribute.mappedBy}`;
  return `mappedBy ${attribute.mappedBy}: ${found}; Strapi gives this attribute no link table and serves nothing through it`;
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
