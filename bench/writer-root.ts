/**
 * The example schema with a full-access writer token and a writer whose `find` on categories has
 * a rule, in a folder of its own: the benches that write (writes.ts, cache-cost.ts) serve it.
 */
import { cpSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tokenHash } from '../plugin/access/tokens.js';
import { repoRoot } from './engines.js';

export const TOKEN = 'writer-token';
/** A writer whose `find` on categories has a rule: every connected category is checked under it. */
export const RULED_TOKEN = 'ruled-writer-token';

/** The example schema with one full-access writer token, in a folder of its own. */
export function writerRoot(dir: string): string {
  const root = join(dir, 'root');
  for (const entry of ['content-types', 'components']) cpSync(join(repoRoot, entry), join(root, entry), { recursive: true });
  const all = '[find, findOne, preview, create, update, delete]';
  writeFileSync(
    join(root, 'permissions.yaml'),
    `roles:\n  writer:\n    article: ${all}\n    category: ${all}\n    restaurant: ${all}\n    file: [find, findOne]\n` +
      `  ruled:\n    article: ${all}\n    category: { find: { where: { id: { $gt: 0 } } }, findOne: true }\n    file: [find, findOne]\n` +
      `tokens:\n  - { name: writer, role: writer, hash: "${tokenHash(TOKEN, 'bench-writes-salt-01')}" }\n  - { name: ruled, role: ruled, hash: "${tokenHash(RULED_TOKEN, 'bench-writes-salt-02')}" }\n`,
  );
  return root;
}

