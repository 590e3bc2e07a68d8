/**
 * `POST /<plural>/:id/localizations`, as Strapi's i18n plugin answers it: the body is the new
 * entry's attributes with its `locale` (no `data` envelope); the new entry is a draft in that
 * locale, takes the source's attributes that are not localized (those the body gives win, and go
 * to the whole group), and joins the source's group of localizations. The answer is Strapi's flat
 * entity with its `localizations`, not the envelope.
 */
import { ApplicationError, DataValidationError, NotFoundError, unknownLocaleError, type DataProblem } from '../errors.js';
import type { Model } from '../schema/registry.js';
import { insertRow } from './apply-row.js';
import { currentTargets } from './apply-relation.js';
import { checkReferences } from './check-references.js';
import { isPlainObject } from './parse-data.js';
import { joinLocalizationGroup, localizationsOf, sharedAttributeNames, sharedColumns } from './localization-group.js';
import type { RowStore } from './row-store.js';
import { inTransaction } from './transaction.js';
import type { Grants } from '../access/permissions.js';
import type { ReadResult } from '../read.js';
import { answerOf, lockNamesOf, newEntryColumns, parseData, recordEvents, runAfterHooks, runBeforeHooks, writeAccess, type WriteEngine, type WriteRequest } from './write.js';

/**
 * Whether the type has the `…/localizations` route: Strapi's i18n plugin adds it to the routes of
 * the app's own (`api::`) localized types only, so a plugin's localized type has none (a 405).
 */
export function hasLocalizationsRoute(model: Model): boolean {
  return model.localized && model.uid.startsWith('api::');
}

export async function createLocalization(engine: WriteEngine, request: WriteRequest & { readonly id: number }, grants: Grants): Promise<Buffer> {
  const { model } = request;
  const access = writeAccess(engine, request, grants);
  const problems: DataProblem[] = [];
  const { locale, ...data } = access.ruledData(model, 'create', isPlainObject(request.body) ? request.body : {}, problems, request.alsoWritten);
  if (locale === undefined || locale === null || locale === '') throw new ApplicationError('locale is missing');
  // Strapi fills the body with the source's attributes that are not localized before checking it.
  const parse = (given: Record<string, unknown>, found: DataProblem[]) => parseData(engine, grants, model, given, { partial: false, path: [], draft: false, inherited: sharedAttributeNames(model) }, found);
  const parsed = parse(data, problems);
  const localizations = localizationsOf(model);
  const locales = await engine.locales();
  const id = await inTransaction(engine, { locks: [...lockNamesOf(engine, parsed), localizations.link.table], deadline: request.deadline, access }, async (store) => {
    const source = (await store.trx(model.tableName).where({ id: request.id }).first()) as Record<string, unknown> | undefined;
    if (!source) throw new NotFoundError('Entity not found');
    // A source the caller may not read is answered as a missing one.
    await access.mustReach(store.trx, model, request.id, 'find', () => new NotFoundError('Entity not found'));
    if (typeof locale !== 'string' || !locales.has(locale)) throw unknownLocaleError('locale is invalid', locale, locales);
    const group = await currentTargets(store, { attribute: localizations }, request.id);
    const used = new Set([source.locale, ...(await localesOf(store, model, group))]);
    if (used.has(locale)) throw new ApplicationError('locale is already used');
    if (problems.length) throw new DataValidationError(problems);
    // A localization is made a draft: it fires create events only.
    const write = (await runBeforeHooks(engine, request, 'create', data, false, parse, { store, locked: [...lockNamesOf(engine, parsed), localizations.link.table] })).write ?? parsed;
    await checkReferences(store, write, null);
    const inherited = omitColumns(sharedColumns(store, model, source), model, Object.keys(write.values));
    const created = await insertRow(store, write, { ...inherited, ...newEntryColumns(store, model, write, locale, false) });
    await joinLocalizationGroup(store, model, created, request.id);
    await request.alsoWrite?.(store, created);
    await access.mustStillMatch(store.trx, model, created, 'create');
    await recordEvents(engine, store, model, ['create'], created);
    return created;
  });
  engine.outbox?.committed();
  const answer = await answerOf(engine, { ...request, answer: undefined, id, query: { populate: ['localizations'] }, queryKey: 'populate[0]=localizations' });
  const created = (JSON.parse(answer.body.toString('utf8')) as { data: Envelope }).data;
  answer.release?.();
  const flat = flatten(created);
  await runAfterHooks(engine, request, 'create', null, () => flat, id);
  // A door with its own answer (GraphQL) gets it; the hooks above had Strapi's entry all the same.
  if (request.answer) return ownAnswer(await answerOf(engine, { ...request, id }));
  return Buffer.from(JSON.stringify(flat));
}

/** An answer's bytes, copied out of what a read worker lent. */
function ownAnswer(answer: ReadResult): Buffer {
  const bytes = Buffer.from(answer.body);
  answer.release?.();
  return bytes;
}

async function localesOf(store: RowStore, model: Model, ids: readonly number[]): Promise<unknown[]> {
  if (!ids.length) return [];
  const rows = (await store.trx(model.tableName).whereIn('id', ids).select('locale')) as { locale: unknown }[];
  return rows.map((row) => row.locale);
}

/** `columns` without those of the attributes the body gives: the body's values win over the source's. */
function omitColumns(columns: Record<string, unknown>, model: Model, given: readonly string[]): Record<string, unknown> {
  const kept = { ...columns };
  for (const name of given) {
    const attribute = model.attributes.get(name);
    if (attribute?.kind === 'scalar') delete kept[attribute.column];
  }
  return kept;
}

interface Envelope {
  readonly id: number;
  readonly attributes: Record<string, unknown>;
}

/** `{ id, attributes: { …, localizations: { data: [...] } } }` → `{ id, …, localizations: [{ id, … }] }`. */
function flatten(entry: Envelope): Record<string, unknown> {
  const { localizations, ...attributes } = entry.attributes as { localizations?: { data: Envelope[] } };
  const flat: Record<string, unknown> = { id: entry.id, ...attributes };
  if (localizations) flat.localizations = localizations.data.map((item) => ({ id: item.id, ...item.attributes }));
  return flat;
}
