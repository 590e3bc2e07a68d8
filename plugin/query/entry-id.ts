/** The `:id` of a route: ids are positive integers; anything else names no entry (a 404). */
import { NotFoundError } from '../errors.js';

/** What an entry id looks like in a path or a field. */
export const ENTRY_ID = /^[1-9]\d{0,15}$/;

/** The id, or a 404 with `message` (the upload routes answer Strapi's own). */
export function parseEntryId(raw: string | undefined, message?: string): number {
  if (!raw || !ENTRY_ID.test(raw)) throw new NotFoundError(message);
  return Number(raw);
}
