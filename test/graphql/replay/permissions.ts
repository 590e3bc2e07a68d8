/**
 * The package's permissions.yaml for the replay, the same grants the reference had when it
 * answered: the public role's rows of the fixture (`up_permissions`, in Strapi's action names),
 * and each token of the recording as a role of its own — a full-access token may do everything
 * on every type, a custom token what its actions name.
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { tokenHash } from '../../../plugin/access/tokens.js';
import { repoRoot } from '../../support/server.js';
import type { RecordedToken } from './recorded.js';

/** The content types of the kit's app (content-types/*.yaml), by singularName. */
const CONTENT_TYPES = ['article', 'category', 'restaurant', 'user', 'role'];
const EVERY_ACTION = ['find', 'findOne', 'preview', 'create', 'update', 'delete'];
const EVERY_FILE_ACTION = ['find', 'findOne', 'upload', 'destroy'];
/** Fixed, so the file is the same on every run; the tokens are test secrets anyway. */
const SALT = 'graphql-replay-salt-0001';

type Grants = Record<string, string[]>;

/**
 * A Strapi action as the package names it ([type, action]), or null for an action the package
 * has no grant for (the users-permissions routes of login).
 */
export function packageAction(action: string): [string, string] | null {
  const api = /^api::([\w-]+)\.\1\.(find|findOne|create|update|delete)$/.exec(action);
  if (api) return [api[1], api[2]];
  const upload = /^plugin::upload\.content-api\.(find|findOne|upload|destroy)$/.exec(action);
  if (upload) return ['file', upload[1]];
  const users = /^plugin::users-permissions\.(user|role)\.(find|findOne|create|update|destroy)$/.exec(action);
  if (users) return [users[1], users[2] === 'destroy' ? 'delete' : users[2]];
  if (action === 'plugin::i18n.locales.listLocales') return ['locale', 'find'];
  return null;
}

function grantsOf(actions: readonly string[]): Grants {
  const grants: Grants = {};
  for (const action of actions) {
    const mapped = packageAction(action);
    if (mapped) (grants[mapped[0]] ??= []).push(mapped[1]);
  }
  return grants;
}

function tokenGrants(token: RecordedToken): Grants {
  if (token.type === 'full-access') {
    return { ...Object.fromEntries(CONTENT_TYPES.map((type) => [type, EVERY_ACTION])), file: EVERY_FILE_ACTION, locale: ['find'], folder: ['find', 'findOne'] };
  }
  return grantsOf(token.actions ?? []);
}

/** The actions the fixture grants Strapi's public role (read from a private copy). */
export function publicActions(fixture: string): string[] {
  const directory = mkdtempSync(join(tmpdir(), 'content-api-graphql-permissions-'));
  try {
    const copy = join(directory, 'fixture.db');
    copyFileSync(fixture, copy);
    const Database = createRequire(join(repoRoot, 'package.json'))('better-sqlite3');
    const sqlite = new Database(copy, { readonly: true });
    try {
      const rows = sqlite
        .prepare(`SELECT p.action AS action FROM up_permissions p
                  JOIN up_permissions_role_links l ON l.permission_id = p.id
                  JOIN up_roles r ON r.id = l.role_id WHERE r.type = 'public' ORDER BY p.action`)
        .all() as { action: string }[];
      return rows.map((row) => row.action);
    } finally {
      sqlite.close();
    }
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

export function replayPermissions(tokens: readonly RecordedToken[], publicRoleActions: readonly string[]): string {
  return stringify({
    roles: { public: grantsOf(publicRoleActions), ...Object.fromEntries(tokens.map((token) => [token.name, tokenGrants(token)])) },
    tokens: tokens.map((token) => ({ name: token.name, role: token.name, hash: tokenHash(token.key, SALT) })),
  });
}
