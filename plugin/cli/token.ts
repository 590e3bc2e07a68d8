/**
 * `content-api token create --role R --name N [--expires DATE] [--root DIR]`: makes an API token
 * for a role, stores its salted hash in permissions.yaml and prints the token once — it cannot be
 * shown again. `token list` prints each token's name, role and expiry (never its hash);
 * `token revoke --name N` removes one. Both edits leave the rest of permissions.yaml byte for
 * byte as it was (token-file.ts); a running server picks them up through its watcher.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CLOSED_API, loadPermissions } from '../access/permissions.js';
import { createToken } from '../access/tokens.js';
import { loadSchema } from '../schema/load.js';
import { commandHelp, parseCommand, UsageError } from './common.js';
import { addTokenEntry, removeTokenEntry } from './token-file.js';

const OPTIONS = {
  root: { type: 'string', default: '.' },
  role: { type: 'string' },
  name: { type: 'string' },
  expires: { type: 'string' },
} as const;

const USAGE = commandHelp(
  `token create --role ROLE --name NAME [--expires DATE] [--root DIR]
       content-api token list [--root DIR]
       content-api token revoke --name NAME [--root DIR]`,
  OPTIONS,
  {
    root: ['DIR', 'the folder of permissions.yaml and the schema (default .)'],
    role: ['ROLE', 'create: the role the token acts as, one of permissions.yaml\'s roles'],
    name: ['NAME', 'create: a name for the token, unique in the file; revoke: the token to remove'],
    expires: ['DATE', 'create: when the token stops working, an ISO-8601 date in the future (2027-01-01 or 2027-01-01T12:00:00Z); default never'],
  },
);

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

/** The instant of an ISO-8601 date, or null when it is not one or names no real day (2027-02-30). */
export function parseExpiry(text: string): Date | null {
  const match = ISO_DATE.exec(text);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const calendar = new Date(Date.UTC(year, month - 1, day));
  if (calendar.getUTCFullYear() !== year || calendar.getUTCMonth() !== month - 1 || calendar.getUTCDate() !== day) return null;
  if (match[4] !== undefined && (Number(match[4]) > 23 || Number(match[5]) > 59 || Number(match[6] ?? 0) > 59)) return null;
  const date = new Date(text);
  return Number.isNaN(date.getTime()) ? null : date;
}

export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseCommand(args, OPTIONS, USAGE, true);
  const action = positionals.length === 1 ? positionals[0] : undefined;
  const file = join(values.root, 'permissions.yaml');
  if (action === 'create') {
    if (!values.role || !values.name) throw new UsageError('token create needs --role and --name', USAGE);
    return create(file, values.root, values.role, values.name, values.expires);
  }
  if (action === 'list') {
    if (values.role || values.name || values.expires) throw new UsageError('token list takes only --root', USAGE);
    return list(file, values.root);
  }
  if (action === 'revoke') {
    if (!values.name || values.role || values.expires) throw new UsageError('token revoke takes --name (and --root) only', USAGE);
    return revoke(file, values.name);
  }
  throw new UsageError('expected `create`, `list` or `revoke`', USAGE);
}

async function create(file: string, root: string, role: string, name: string, expires: string | undefined): Promise<number> {
  const expiresAt = expires === undefined ? null : parseExpiry(expires);
  if (expires !== undefined && !expiresAt) {
    process.stderr.write(`content-api token: invalid --expires "${expires}": expected an ISO-8601 date such as 2027-01-01 or 2027-01-01T12:00:00Z\n`);
    return 2;
  }
  if (expiresAt && expiresAt.getTime() <= Date.now()) {
    process.stderr.write(`content-api token: --expires ${expires} is in the past (now is ${new Date().toISOString()}); a token must expire later\n`);
    return 2;
  }
  const permissions = (await loadPermissions(file, 'permissions.yaml', await loadSchema(root))) ?? CLOSED_API;
  if (!permissions.roles.has(role)) {
    process.stderr.write(`unknown role "${role}"; permissions.yaml has: ${[...permissions.roles.keys()].join(', ')}\n`);
    return 1;
  }
  if (permissions.tokens.some((token) => token.name === name)) {
    process.stderr.write(`a token named "${name}" already exists\n`);
    return 1;
  }
  const { token, hash } = createToken();
  const text = await readFileOrEmpty(file);
  await writeFile(file, addTokenEntry(text, { name, role, hash, ...(expiresAt ? { expiresAt: expiresAt.toISOString() } : {}) }));
  process.stdout.write(`${token}\n`);
  process.stderr.write(`token "${name}" for role ${role} added to ${file}; it is shown only once\n`);
  return 0;
}

async function list(file: string, root: string): Promise<number> {
  const permissions = (await loadPermissions(file, 'permissions.yaml', await loadSchema(root))) ?? CLOSED_API;
  if (permissions.tokens.length === 0) {
    process.stderr.write(`no tokens in ${file}\n`);
    return 0;
  }
  const now = Date.now();
  const rows = [['NAME', 'ROLE', 'EXPIRES'], ...permissions.tokens.map((token) => [token.name, token.role, expiry(token.expiresAt, now)])];
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  for (const row of rows) process.stdout.write(`${row.map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column]!))).join('  ')}\n`);
  return 0;
}

function expiry(expiresAt: number | null, now: number): string {
  if (expiresAt === null) return 'never';
  return `${new Date(expiresAt).toISOString()}${expiresAt <= now ? ' (expired)' : ''}`;
}

async function revoke(file: string, name: string): Promise<number> {
  const edited = removeTokenEntry(await readFileOrEmpty(file), name);
  if (edited === null) {
    process.stderr.write(`content-api token: no token named "${name}" in ${file}\n`);
    return 1;
  }
  await writeFile(file, edited);
  process.stderr.write(`token "${name}" removed from ${file}\n`);
  return 0;
}

async function readFileOrEmpty(file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return '';
    throw error;
  }
}
