/**
 * Shared by the schema suites: the repository root and the schema fixture folders, resolved from
 * this file's location so the suites run from any working folder.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadSchema } from '../../plugin/schema/load.js';
import { SchemaError, type SchemaProblem } from '../../plugin/schema/problems.js';
import { findPackageRoot } from '../../plugin/schema/schema-files.js';

export const repoRoot = findPackageRoot(dirname(fileURLToPath(import.meta.url)));

/** `test/fixtures/schemas/<name>` */
export function schemaFixture(name: string): string {
  return join(repoRoot, 'test', 'fixtures', 'schemas', name);
}

/** The problems of loading a fixture folder; fails when it loads. */
export async function problemsOf(name: string): Promise<readonly SchemaProblem[]> {
  try {
    await loadSchema(schemaFixture(name));
  } catch (error) {
    if (error instanceof SchemaError) return error.problems;
    throw error;
  }
  throw new Error(`fixture ${name} loaded without problems`);
}
