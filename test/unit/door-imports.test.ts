/**
 * One typed core, two doors: nothing below the doors (the query parsers, access, the compiler,
 * formatting, writes, uploads, end users, the response cache, the read entry) imports from the REST
 * door (plugin/http/) or the GraphQL door (plugin/graphql/), directly or through another module.
 * Read from the sources' import and export statements, so that a new import cannot slip in.
 */
import { expect } from 'chai';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { repoRoot } from '../support/server.js';

const PLUGIN = join(repoRoot, 'plugin');
const DOORS = ['http', 'graphql'];
/** The core: every module of these folders, and these files. */
const CORE_FOLDERS = ['query', 'access', 'sql', 'format', 'write', 'upload', 'auth', 'cache', 'schema', 'storage', 'webhooks'];
const CORE_FILES = ['read.ts', 'plan-cache.ts', 'response-budget.ts', 'errors.ts'];

function sources(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) return sources(path);
    return name.endsWith('.ts') && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The plugin modules a source imports or re-exports (static and dynamic), as source paths. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specifiers = [...text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'"`;]*?from\s*['"]([^'"]+)['"]|\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)|(?:^|\n)\s*import\s*['"]([^'"]+)['"]/g)].map(
    (match) => match[1] ?? match[2] ?? match[3],
  );
  return specifiers.filter((specifier) => specifier.startsWith('.')).map((specifier) => resolve(dirname(file), specifier.replace(/\.js$/, '.ts')));
}

const inDoor = (file: string) => DOORS.some((door) => file.startsWith(join(PLUGIN, door) + '/'));

describe('the core imports no door', function () {
  const core = [...CORE_FOLDERS.flatMap((folder) => sources(join(PLUGIN, folder))), ...CORE_FILES.map((name) => join(PLUGIN, name))];

  it('reads the import statements it checks', function () {
    // The reader finds the imports of a module known to have them, so that an empty graph cannot pass.
    expect(importsOf(join(PLUGIN, 'read.ts'))).to.include(join(PLUGIN, 'access', 'authorize.ts'));
    expect(importsOf(join(PLUGIN, 'http', 'router.ts')).some(inDoor)).to.equal(true);
    expect(core.length).to.be.greaterThan(100);
  });

  it('no module of the core reaches plugin/http/ or plugin/graphql/, directly or through others', function () {
    // Breadth first from every core module; `via` keeps the path that reached a module, for the message.
    const via = new Map<string, string[]>(core.map((file) => [file, [file]]));
    const queue = [...core];
    const reached: string[] = [];
    while (queue.length) {
      const file = queue.shift()!;
      for (const target of importsOf(file)) {
        if (via.has(target)) continue;
        const path = [...via.get(file)!, target];
        via.set(target, path);
        if (inDoor(target)) reached.push(path.map((step) => relative(repoRoot, step)).join(' → '));
        else queue.push(target);
      }
    }
    expect(reached, 'imports from a door').to.deep.equal([]);
  });
});
