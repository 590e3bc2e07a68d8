/**
 * Locates the conformance kit (recorded Strapi 4.26.2 responses, fixture databases, run.mjs):
 * `CONFORMANCE_DIR` when set, else `<repo>/../shared/conformance`, else `/work/shared/conformance`.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = resolve(fileURLToPath(new URL('../../../', import.meta.url)));

function isKit(directory: string): boolean {
  return existsSync(join(directory, 'run.mjs')) && existsSync(join(directory, 'cases'));
}

/** The kit's directory; throws naming every place looked at when there is none. */
export function conformanceKitDir(): string {
  const fromEnv = process.env.CONFORMANCE_DIR;
  if (fromEnv) {
    const directory = resolve(fromEnv);
    if (isKit(directory)) return directory;
    throw new Error(`CONFORMANCE_DIR=${fromEnv} is not a conformance kit (expected run.mjs and cases/ in ${directory})`);
  }
  const candidates = [resolve(repoRoot, '..', 'shared', 'conformance'), '/work/shared/conformance'];
  const found = candidates.find(isKit);
  if (found) return found;
  throw new Error(`conformance kit not found: set CONFORMANCE_DIR, or place it at ${candidates.join(' or ')}`);
}
