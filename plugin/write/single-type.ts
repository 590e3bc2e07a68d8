/**
 * A single type's writes, as Strapi 4.26.2's: `PUT /<singular>` updates the entry of the requested
 * locale, or creates the first entry while the type has none at all (another locale's entry is
 * made by `POST /<singular>/localizations`); `DELETE /<singular>` deletes the entry of the locale
 * in the requested publication state and answers it bare.
 */
import type { Knex } from 'knex';
import type { Grants } from '../access/permissions.js';
import { NotFoundError, ValidationError } from '../errors.js';
import type { Model } from '../schema/registry.js';
import { NO_QUERY, type ReadResult } from '../read.js';
import { createLocalization } from './localizations.js';
import { createEntry, deleteEntry, updateEntry, type WriteEngine, type WriteRequest } from './write.js';

interface EntryLookup {
  readonly locale: string | null;
  /** Whether drafts are found too (a draft & publish type's DELETE finds published entries unless `publicationState=preview`). */
  readonly drafts: boolean;
}

/** The lowest id among the entries of the locale (all locales when null), or null when there is none. */
async function entryId(knex: Knex | Knex.Transaction, model: Model, lookup: EntryLookup): Promise<number | null> {
  const query = knex(model.tableName).orderBy('id', 'asc').first('id');
  if (model.localized && lookup.locale !== null) query.where({ locale: lookup.locale });
  if (model.draftAndPublish && !lookup.drafts) query.whereNotNull('published_at');
  const row = (await query) as { id: number | bigint } | undefined;
  return row ? Number(row.id) : null;
}

/** `?locale=`, a code (the default locale when absent); null for a type that is not localized. */
function queryLocale(engine: WriteEngine, request: WriteRequest): string | null {
  if (!request.model.localized) return null;
  const { locale } = request.query;
  if (locale === undefined || locale === null) return engine.registry.i18n.defaultLocale;
  if (typeof locale !== 'string') throw new ValidationError('locale', 'Invalid locale; expected one locale code');
  return locale;
}

/** A single type holds one entry per locale, and only the first is made by a PUT. */
async function mustBeEmpty(knex: Knex | Knex.Transaction, model: Model): Promise<void> {
  if ((await entryId(knex, model, { locale: null, drafts: true })) !== null) throw new ValidationError('', 'singleType.alreadyExists');
}

export async function putSingleType(engine: WriteEngine, request: WriteRequest, grants: Grants): Promise<ReadResult> {
  const locale = queryLocale(engine, request);
  const id = await entryId(engine.knex, request.model, { locale, drafts: true });
  if (id !== null) return updateEntry(engine, { ...request, id }, grants);
  // Before the body and the locale are looked at, as Strapi; and again in the transaction, for a race.
  await mustBeEmpty(engine.knex, request.model);
  return createEntry(engine, request, grants, (store) => mustBeEmpty(store.trx, request.model));
}

export async function deleteSingleType(engine: WriteEngine, request: WriteRequest): Promise<ReadResult> {
  const { publicationState } = request.query;
  if (publicationState !== undefined && publicationState !== 'live' && publicationState !== 'preview') {
    throw new ValidationError('publicationState', 'Invalid publicationState; expected live or preview');
  }
  const id = await entryId(engine.knex, request.model, { locale: queryLocale(engine, request), drafts: publicationState === 'preview' });
  if (id === null) throw new NotFoundError();
  // Strapi answers the deleted entry bare: `fields` and `populate` are not applied.
  return deleteEntry(engine, { ...request, id, ...NO_QUERY });
}

/** `POST /<singular>/localizations`: a localization of the type's first entry, whatever its locale. */
export async function localizeSingleType(engine: WriteEngine, request: WriteRequest, grants: Grants): Promise<Buffer> {
  const id = await entryId(engine.knex, request.model, { locale: null, drafts: true });
  if (id === null) throw new NotFoundError('Entity not found');
  return createLocalization(engine, { ...request, id }, grants);
}
