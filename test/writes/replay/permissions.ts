/**
 * The permissions.yaml of the replay: the example's `public` role as it is (reads only), a
 * `writer` role with every action on every content type, and the token the recording sent
 * (`writer-token`, the full-access token of the reference) acting as `writer`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { tokenHash } from '../../../plugin/access/tokens.js';
import { repoRoot } from '../../support/api.js';
import { WRITER_TOKEN } from './send.js';

const EVERY_ACTION = ['find', 'findOne', 'preview', 'create', 'update', 'delete'];
/** Fixed, so the file is the same on every run; the token is a test secret anyway. */
const SALT = 'write-replay-salt-0001';

export function writerPermissions(): string {
  const example = parse(readFileSync(join(repoRoot, 'permissions.yaml'), 'utf8')) as { roles: { public: unknown } };
  const writer = Object.fromEntries(['article', 'category', 'restaurant', 'user', 'role'].map((type) => [type, EVERY_ACTION]));
  return stringify({
    roles: { public: example.roles.public, writer: { ...writer, file: ['find', 'findOne'] } },
    tokens: [{ name: 'writer', role: 'writer', hash: tokenHash(WRITER_TOKEN, SALT) }],
  });
}
