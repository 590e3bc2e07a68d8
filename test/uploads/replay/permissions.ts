/**
 * The permissions.yaml of the upload replay: the write replay's roles (the example's `public`, a
 * `writer` with every action on every content type, acting for the token the recording sent),
 * the writer also holding every action on `file`.
 */
import { parse, stringify } from 'yaml';
import { writerPermissions } from '../../writes/replay/permissions.js';
import { WRITER_TOKEN } from '../../writes/replay/send.js';

export { WRITER_TOKEN };

export function uploadPermissions(): string {
  const permissions = parse(writerPermissions()) as { roles: { writer: Record<string, string[]> } };
  permissions.roles.writer.file = ['find', 'findOne', 'upload', 'destroy'];
  return stringify(permissions);
}
