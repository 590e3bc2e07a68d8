/**
 * A single type's writes, as Strapi's: `PUT /<singular>` updates the entry (of the requested
 * locale) or creates it when there is none yet; `DELETE /<singular>` deletes it.
 */
import type { Grants } from '../access/permissions.js';
import { NotFoundError } from '../errors.js';
import { parseQueryString } from '../http/query-string.js';
import type { ReadResult } from '../read.js';
import { checkLocale, createEntry, deleteEntry, updateEntry, type WriteEngine, type WriteRequest } from './write.js';

/** The id of the single type's entry in the request's locale, or null when it has none. */
async function singleEntryId(engine: WriteEngine, request: WriteRequest): Promise<number | null> {
  const { model } = request;
  const query = engine.knex(model.tableName).orderBy('id', 'asc').first('id');
  if (model.localized) query.where({ locale: checkLocale(await engine.locales(), parseQueryString(request.querystring).locale ?? engine.registry.i18n.defaultLocale) });
  const row = (await query) as { id: number | bigint } | undefined;
  return row ? Number(row.id) : null;
}

export async function putSingleType(engine: WriteEngine, request: WriteRequest, grants: Grants): Promise<ReadResult> {
  const id = await singleEntryId(engine, request);
  return id === null ? createEntry(engine, request, grants) : updateEntry(engine, { ...request, id }, grants);
}

export async function deleteSingleType(engine: WriteEngine, request: WriteRequest): Promise<ReadResult> {
  const id = await singleEntryId(engine, request);
  if (id === null) throw new NotFoundError();
  return deleteEntry(engine, { ...request, id });
}
