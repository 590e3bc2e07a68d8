/**
 * Where the JSON Schema files shipped with the package live. tsc does not copy JSON files to
 * dist, so they are found relative to the package root (the folder holding package.json), which
 * is the same whether this module runs from the source tree or from dist.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Which of the two shipped JSON Schemas: one for content types, one for components. */
export type SchemaFileKind = 'contentType' | 'component';

const FILE_NAMES: Record<SchemaFileKind, string> = {
  contentType: 'content-type.schema.json',
  component: 'component.schema.json',
};

/** The package root: the nearest folder above this module that holds a package.json. */
export function findPackageRoot(start: string = dirname(fileURLToPath(import.meta.url))): string {
  let folder = start;
  while (!existsSync(join(folder, 'package.json'))) {
    const parent = dirname(folder);
    if (parent === folder) throw new Error(`no package.json above ${start}`);
    folder = parent;
  }
  return folder;
}

/** The bare file name of a shipped JSON Schema (`content-type.schema.json`). */
export function schemaFileName(kind: SchemaFileKind): string {
  return FILE_NAMES[kind];
}

/** The absolute path of a shipped JSON Schema. */
export function schemaFilePath(kind: SchemaFileKind): string {
  return join(findPackageRoot(), 'plugin', 'schema', FILE_NAMES[kind]);
}
