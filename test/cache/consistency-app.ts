/**
 * The app of the consistency suite: the rules app's notes, members and tags and a memo type, row
 * rules per role on notes, and API tokens for the second server's callers. Served in this process (`A`) with the response cache, and by a
 * `content-api serve --cache` process (`B`) on the same database.
 */
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Knex } from 'knex';
import { tokenHash } from '../../plugin/access/tokens.js';
import { RULES_APP } from './support.js';

/**
 * What each writer rewrites, a table of its own (so that a write path whose invalidation is missing
 * is not hidden by another's): the title of a note through this server's API, a tag's name through
 * `api.models`, a member's email through plain SQL, a memo's title through the other server's API.
 * Values are `<writer>:<number>`, the number growing with each write.
 */
export const WRITERS = ['api', 'models', 'sql', 'remote'] as const;
export type Writer = (typeof WRITERS)[number];

/** The notes, by name: who owns each and whether the public sees it. */
export const NOTES: Readonly<Record<string, { readonly owner: string; readonly featured: boolean }>> = {
  api: { owner: 'alice', featured: true },
  second: { owner: 'bob', featured: true },
  third: { owner: 'alice', featured: false },
  fourth: { owner: 'sql', featured: false },
};

export const TOKENS = { moderator: 'cache-test-moderator-token', alice: 'cache-test-reader-alice', bob: 'cache-test-reader-bob' } as const;

const PERMISSIONS = `roles:
  public:
    note:
      find: { where: { featured: true }, fields: { except: [internalNotes] } }
    tag: [find]
    member: [find]
    memo: [find]
  author:
    note:
      find: { where: { owner: { id: $user.id } } }
    tag: [find]
    member: [find]
    memo: [find]
  moderator:
    note: [find, findOne, update]
    tag: [find]
    member: [find]
    memo: [find, update]
  reader:
    note:
      find: { where: { owner: { name: { $eqi: $claims.member } } } }
    tag: [find]
    member: [find]
    memo: [find]
tokens:
  - { name: moderator, role: moderator, hash: "${tokenHash(TOKENS.moderator, 'cache-test-salt-0001')}" }
  - { name: alice, role: reader, hash: "${tokenHash(TOKENS.alice, 'cache-test-salt-0002')}", claims: { member: ALICE } }
  - { name: bob, role: reader, hash: "${tokenHash(TOKENS.bob, 'cache-test-salt-0003')}", claims: { member: BOB } }
`;

const MEMO = `kind: collectionType
collectionName: memos
info: { singularName: memo, pluralName: memos, displayName: Memo }
options: { draftAndPublish: false }
attributes:
  title: { type: string }
`;

function dataFile(): string {
  const notes = Object.entries(NOTES).map(([name, note]) => `  ${name}: { title: "${name}:0", featured: ${note.featured}, internalNotes: CANARY-${name}, owner: ${note.owner}, tag: models }`);
  return [
    'member:',
    '  alice: { name: Alice, email: "alice:0" }',
    '  bob: { name: Bob, email: "bob:0" }',
    '  sql: { name: Sql, email: "sql:0" }',
    'tag:',
    '  models: { name: "models:0", public: true }',
    'note:',
    ...notes,
    'memo:',
    '  remote: { title: "remote:0" }',
    '',
  ].join('\n');
}

/** A schema folder of its own; `remove()` deletes it. */
export function consistencyApp(): { root: string; data: string; remove(): void } {
  const root = mkdtempSync(join(tmpdir(), 'content-api-cache-app-'));
  cpSync(join(RULES_APP, 'content-types'), join(root, 'content-types'), { recursive: true });
  writeFileSync(join(root, 'content-types', 'memo.yaml'), MEMO);
  writeFileSync(join(root, 'permissions.yaml'), PERMISSIONS);
  writeFileSync(join(root, 'data.yaml'), dataFile());
  return { root, data: join(root, 'data.yaml'), remove: () => rmSync(root, { recursive: true, force: true }) };
}

/** The URL `content-api serve --database` takes for the database `knex` is open on. */
export function databaseUrl(knex: Knex): string {
  const connection = knex.client.config.connection as Record<string, unknown>;
  if (typeof connection.filename === 'string') return `sqlite:${connection.filename}`;
  if (typeof connection.connectionString === 'string') return connection.connectionString;
  const auth = `${encodeURIComponent(String(connection.user))}${connection.password ? `:${encodeURIComponent(String(connection.password))}` : ''}`;
  return `mysql://${auth}@${String(connection.host)}:${String(connection.port)}/${String(connection.database)}`;
}
