/** The `:id` of a route: ids are positive integers; anything else names no entry (a 404). */
import { NotFoundError } from '../errors.js';

export function parseEntryId(raw: string | undefined): number {
  if (!raw || !/^[1-9]\d{0,15}$/.test(raw)) throw new NotFoundError();
  return Number(raw);
}
