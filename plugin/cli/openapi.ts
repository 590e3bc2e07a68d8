/**
 * `content-api openapi [--root DIR] [--role R] [--prefix /api] [--out FILE]`: the OpenAPI 3.1
 * document of the API as role R sees it (default: public), written to FILE or printed.
 */
import { join } from 'node:path';
import { CLOSED_API, grantsFor, loadPermissions } from '../access/permissions.js';
import { PUBLIC_ROLE } from '../access/caller.js';
import { generateOpenApi } from '../openapi/document.js';
import { loadSchema } from '../schema/load.js';
import { commandHelp, parseCommand, writeOutput } from './common.js';

const OPTIONS = {
  root: { type: 'string', default: '.' },
  role: { type: 'string', default: PUBLIC_ROLE },
  prefix: { type: 'string', default: '/api' },
  out: { type: 'string' },
} as const;

const USAGE = commandHelp('openapi [--root DIR] [--role R] [--prefix /api] [--out FILE]', OPTIONS, {
  root: ['DIR', 'the schema folder, with permissions.yaml (default .)'],
  role: ['R', 'the role whose view of the API is described (default public)'],
  prefix: ['PATH', 'the API route prefix in the paths (default /api)'],
  out: ['FILE', 'write the document to FILE (its folder created) rather than to stdout'],
});

export async function run(args: string[]): Promise<number> {
  const { values } = parseCommand(args, OPTIONS, USAGE);
  const registry = await loadSchema(values.root);
  const permissions = (await loadPermissions(join(values.root, 'permissions.yaml'), 'permissions.yaml', registry)) ?? CLOSED_API;
  const document = `${JSON.stringify(generateOpenApi(registry, grantsFor(permissions, values.role), { prefix: values.prefix }), null, 2)}\n`;
  writeOutput(values.out, document);
  return 0;
}
