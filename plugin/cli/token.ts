/**
 * `content-api token create --role R --name N [--expires ISO-DATE] [--root DIR]`: makes an API
 * token for a role, stores its salted hash in permissions.yaml (comments kept) and prints the
 * token once — it cannot be shown again.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseDocument, YAMLSeq } from 'yaml';
import { loadPermissions } from '../access/permissions.js';
import { createToken } from '../access/tokens.js';
import { loadSchema } from '../schema/load.js';
import { parseCommand, UsageError } from './common.js';

const OPTIONS = {
  root: { type: 'string', default: '.' },
  role: { type: 'string' },
  name: { type: 'string' },
  expires: { type: 'string' },
} as const;

const USAGE = 'usage: content-api token create --role ROLE --name NAME [--expires ISO-DATE] [--root DIR]\n';

export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseCommand(args, OPTIONS, USAGE, true);
  if (positionals[0] !== 'create' || positionals.length !== 1 || !values.role || !values.name) {
    throw new UsageError('expected `create` with --role and --name', USAGE);
  }
  const expiresAt = values.expires === undefined ? null : new Date(values.expires);
  if (expiresAt && Number.isNaN(expiresAt.getTime())) {
    process.stderr.write(`invalid --expires "${values.expires}": expected an ISO-8601 date\n`);
    return 2;
  }
  const file = join(values.root, 'permissions.yaml');
  const permissions = await loadPermissions(file, 'permissions.yaml', await loadSchema(values.root));
  if (!permissions.roles.has(values.role)) {
    process.stderr.write(`unknown role "${values.role}"; permissions.yaml has: ${[...permissions.roles.keys()].join(', ')}\n`);
    return 1;
  }
  if (permissions.tokens.some((token) => token.name === values.name)) {
    process.stderr.write(`a token named "${values.name}" already exists\n`);
    return 1;
  }
  const { token, hash } = createToken();
  const document = parseDocument(await readFile(file, 'utf8'));
  if (!(document.get('tokens') instanceof YAMLSeq)) document.set('tokens', document.createNode([]));
  const entry: Record<string, string> = { name: values.name, role: values.role, hash };
  if (expiresAt) entry.expiresAt = expiresAt.toISOString();
  const tokens = document.get('tokens') as YAMLSeq;
  // `tokens: []` is written in flow style; a list of records reads better as a block.
  tokens.flow = false;
  tokens.add(document.createNode(entry));
  await writeFile(file, document.toString());
  process.stdout.write(`${token}\n`);
  process.stderr.write(`token "${values.name}" for role ${values.role} added to ${file}; it is shown only once\n`);
  return 0;
}
