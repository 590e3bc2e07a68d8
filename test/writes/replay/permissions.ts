/**
 * The permissions.yaml of the replay: the example's `public` role as it is (reads only), a
 * `writer` role with every action on every content type, the token the recording sent
 * (`writer-token`, the full-access token of the reference) acting as `writer`, and its custom
 * token `restricted-token` with the same few permissions as in the reference.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { tokenHash } from '../../../plugin/access/tokens.js';
import { repoRoot } from '../../support/api.js';
import { RESTRICTED_TOKEN, WRITER_TOKEN } from './send.js';

const EVERY_ACTION = ['find', 'findOne', 'preview', 'create', 'update', 'delete'];
/** Fixed, so the file is the same on every run; the token is a test secret anyway. */
const SALT = 'write-replay-salt-0001';

export function writerPermissions(): string {
  const example = parse(readFileSync(join(repoRoot, 'permissions.yaml'), 'utf8')) as { roles: { public: unknown } };
  const writer = Object.fromEntries(['article', 'category', 'restaurant', 'user', 'role'].map((type) => [type, EVERY_ACTION]));
  return stringify({
    roles: {
      public: example.roles.public,
      writer: { ...writer, file: ['find', 'findOne'] },
      // The reference's custom token `restricted` (record.mjs): neither restaurants nor files.
      restricted: { article: ['create', 'find', 'findOne'], category: ['find'] },
    },
    tokens: [
      { name: 'writer', role: 'writer', hash: tokenHash(WRITER_TOKEN, SALT) },
      { name: 'restricted', role: 'restricted', hash: tokenHash(RESTRICTED_TOKEN, SALT) },
    ],
  });
}
