/**
 * One write request, through the pipeline: permission (403 before the body is looked at, as in
 * Strapi) → body and schema checks (every problem at once) → one transaction (database checks,
 * then the statements) → the entry read back through the read pipeline, shaped by the request's
 * `fields` and `populate`. Knows nothing of Koa; http/write-routes.ts feeds it.
 */
import type { Knex } from 'knex';
import { grantsFor, type Action, type Grants } from '../access/permissions.js';
import { DataValidationError, ForbiddenError, NotFoundError, unknownLocaleError, ValidationError, type DataProblem } from '../errors.js';
import { readWritten, type ReadEngine, type ReadResult, type WrittenRequest } from '../read.js';
import type { Model } from '../schema/registry.js';
import { insertRow, updateRow } from './apply-row.js';
import { checkReferences } from './check-references.js';
import { deleteRow } from './delete-rows.js';
import type { RowWrite } from './input.js';
import { isPlainObject, parseRow, type RowOptions } from './parse-data.js';
import { relationLinks } from './relation-links.js';
import type { RowStore, WriteSchema } from './row-store.js';
import type { Executor } from '../sql/execute.js';
import type { ScalarChecker } from './scalar-values.js';
import { inTransaction, lockMore } from './transaction.js';
import { linkListedLocalizations } from './localization-group.js';
import { answeredEntry, type HookRequest, type LifecycleAction, type Lifecycles } from './lifecycles.js';
import { WriteAccess } from '../access/write-access.js';
import type { Outbox } from '../webhooks/outbox.js';
import { splitDataLocale } from './data-locale.js';
import { populatesLocalizations, shareWithLocalizations } from './share-on-update.js';
import type { LocaleEntry } from '../storage/strapi-locales.js';

export interface WriteEngine extends ReadEngine {
  readonly knex: Knex;
  readonly schema: WriteSchema;
  readonly checker: ScalarChecker;
  /** The locales entries may be written in (read from the database once: never inside a write's transaction, which holds SQLite's one connection). */
  readonly locales: () => Promise<ReadonlySet<string>>;
  /** The same locales as `GET /i18n/locales` lists them (storage/strapi-locales.ts). */
  readonly localeEntries: () => Promise<readonly LocaleEntry[]>;
  readonly now: () => number;
  /** Reads from the primary database: the answer of a write must see the write (a replica may lag). */
  readonly primaryExecutor: Executor;
  /** The `lifecycles` hooks and `api.events` (write/lifecycles.ts). */
  readonly lifecycles: Lifecycles;
  /** Where the write's webhook events are recorded, in its transaction (plugin/webhooks); absent without webhooks. */
  readonly outbox?: Outbox;
}

/** The written entry, read back from the primary: as the request's `answer` builds it, else shaped by its `fields` and `populate`. */
export function answerOf(engine: WriteEngine, request: WrittenRequest & Pick<WriteRequest, 'answer'>): Promise<ReadResult> {
  const primary = { ...engine, executor: engine.primaryExecutor };
  return request.answer && request.id !== null ? request.answer(primary, request.id) : readWritten(primary, request);
}

/** How a door answers a written entry (by id), when not as the REST door does; read with `engine`, the primary's. */
export type WrittenAnswer = (engine: ReadEngine, id: number) => Promise<ReadResult>;

/** A write command, as a door builds it: the entry, the body, the query (parsed by the door) that shapes the answer. */
export interface WriteRequest extends WrittenRequest {
  /** The request body as parsed JSON; undefined when there was none. */
  readonly body: unknown;
  /** The request's `ctx.state` for the hooks, and where their failures after commit go. */
  readonly hooks?: HookRequest;
  /** More writes of the entry's own transaction, once its row is written (the files sent with it). */
  readonly alsoWrite?: (store: RowStore, id: number) => Promise<void>;
  /** The attributes `alsoWrite` writes (the files' `files.<attribute>…` parts): the rule's `fields` must allow them too. */
  readonly alsoWritten?: readonly string[];
  /** The answer's own shape (the GraphQL door's selection); absent: the query's `fields` and `populate`. */
  readonly answer?: WrittenAnswer;
  /**
   * Whether a new entry without `publishedAt` is published (REST, the default) or a draft (GraphQL,
   * whose plugin creates through the entity service). Its checks are a published entry's either way.
   */
  readonly publishes?: boolean;
}

/** What the caller of a write may change, under its role's grants. */
export function writeAccess(engine: WriteEngine, request: Pick<WriteRequest, 'caller'>, grants: Grants): WriteAccess {
  return WriteAccess.of(grants, request.caller, engine.executor.dialect);
}

/** Whether the write publishes or unpublishes the entry: `publishedAt` going from null to a date, or back. */
function publication(model: Model, data: Record<string, unknown>, wasPublished: boolean | null, publishes: boolean): LifecycleAction | null {
  if (!model.draftAndPublish) return null;
  // A new entry is published unless created with `publishedAt: null` (or, where the door creates drafts, without a date).
  if (wasPublished === null) return data.publishedAt === null || (!publishes && data.publishedAt === undefined) ? null : 'publish';
  if (data.publishedAt === undefined) return null;
  if (data.publishedAt === null) return wasPublished ? 'unpublish' : null;
  return wasPublished ? null : 'publish';
}

/**
 * The `before*` hooks of a write, in its transaction: the action's, then publish or unpublish's.
 * Answers the write again from the data as the hooks left it, checked again (a 400 with its
 * problems), and the publication event the after hooks then get; undefined `write` when no hook ran.
 */
export async function runBeforeHooks(
  engine: WriteEngine,
  request: WriteRequest,
  action: LifecycleAction,
  data: Record<string, unknown>,
  wasPublished: boolean | null,
  reparse: (data: Record<string, unknown>, problems: DataProblem[]) => RowWrite,
  locking: { readonly store: RowStore; readonly locked: readonly string[] },
  extra: { id?: number; entry?: unknown } = {},
): Promise<{ write?: RowWrite; publication: LifecycleAction | null }> {
  const { lifecycles } = engine;
  const { model } = request;
  const publishes = request.publishes !== false;
  if (!lifecycles.hooked(model)) return { publication: publication(model, data, wasPublished, publishes) };
  // A copy: the hooks change what is written, never the body the caller's checks read.
  const event = lifecycles.event(model, action, request.role, request.hooks, { ...extra, data: structuredClone(data) });
  await lifecycles.before(model, event);
  const changed = event.data ?? {};
  const published = publication(model, changed, wasPublished, publishes);
  if (published) {
    const publishEvent = lifecycles.event(model, published, request.role, request.hooks, { ...extra, data: changed });
    await lifecycles.before(model, publishEvent);
    event.data = publishEvent.data;
  }
  const problems: DataProblem[] = [];
  const write = reparse(event.data ?? {}, problems);
  if (problems.length) throw new DataValidationError(problems);
  // A hook may relate lists the body did not: their tables are locked now. Out of name order, two
  // such writes may deadlock; PostgreSQL then fails one, and it is run again (transaction.ts).
  await lockMore(locking.store, lockNamesOf(engine, write).filter((name) => !locking.locked.includes(name)));
  return { write, publication: published };
}

/** The `after*` hooks and events of a committed write, with the entry as answered. */
export async function runAfterHooks(engine: WriteEngine, request: WriteRequest, action: LifecycleAction, published: LifecycleAction | null, answered: () => unknown, id: number): Promise<void> {
  const { lifecycles } = engine;
  const { model } = request;
  const actions = published ? [action, published] : [action];
  // The answer is parsed only for a write someone hears of.
  if (!lifecycles.heard(model)) return;
  const entry = answered();
  for (const done of actions) {
    await lifecycles.after(model, lifecycles.event(model, done, request.role, request.hooks, { id, entry }), request.hooks);
  }
}

/** Records the write's webhook events in its transaction (plugin/webhooks/outbox.ts): those of the actions no target wants are not. */
export async function recordEvents(engine: WriteEngine, store: RowStore, model: Model, actions: readonly (LifecycleAction | null)[], id: number): Promise<void> {
  await engine.outbox?.recordEntryEvents(store.trx, model, actions.filter((action): action is LifecycleAction => action !== null), id, store.now);
}

/** Checks the caller may do `action` on the type (before its body is read); answers its grants, which every write then takes. */
export function grantsToWrite(request: Pick<WriteRequest, 'rules' | 'role' | 'model'>, action: Action): Grants {
  const grants = grantsFor(request.rules.permissions, request.role);
  if (!grants.can(request.model.uid, action)) throw new ForbiddenError();
  return grants;
}

/** `{ data: { … } }`, as Strapi requires it. */
export function dataOf(body: unknown): Record<string, unknown> {
  if (!isPlainObject(body) || !('data' in body) || body.data === null || typeof body.data !== 'object') {
    throw new ValidationError('', 'Missing "data" payload in the request body');
  }
  if (!isPlainObject(body.data)) throw new DataValidationError([{ path: [], message: 'data must be an object, not a list' }]);
  return body.data;
}

/** A locale code the API knows; an unknown one is Strapi's ApplicationError, the valid ones in its details. */
export function checkLocale(locales: ReadonlySet<string>, locale: unknown): string {
  if (typeof locale !== 'string' || !locales.has(locale)) throw unknownLocaleError("This locale doesn't exist", locale, locales);
  return locale;
}

/** The writes of a body's `data` for an entry of `model`; `draft` when the entry is one (Strapi's lighter checks, parse-data.ts). */
export function parseData(engine: WriteEngine, grants: Grants, model: Model, data: Record<string, unknown>, options: RowOptions & { readonly draft: boolean }, problems: DataProblem[] = []): RowWrite {
  return parseRow({ registry: engine.registry, checker: engine.checker, grants, draft: options.draft }, model, data, options, problems);
}

/** The tables a write reorders lists in, and the entry's own: what its transaction locks. */
export function lockNamesOf(engine: WriteEngine, write: RowWrite): string[] {
  const names = [write.model.tableName];
  const visit = (row: RowWrite) => {
    for (const change of row.relations) names.push(relationLinks(engine.registry, change.attribute).table);
    for (const change of row.components) change.items.forEach((item) => visit(item.row));
  };
  visit(write);
  return names;
}

/**
 * `POST /<plural>` (and a single type's first `PUT`): a new entry, published unless `publishedAt:
 * null`. `guard` runs first in the transaction (a single type checks there that it has no entry).
 */
export async function createEntry(engine: WriteEngine, request: WriteRequest, grants: Grants, guard?: (store: RowStore) => Promise<void>): Promise<ReadResult> {
  const { model } = request;
  const access = writeAccess(engine, request, grants);
  const problems: DataProblem[] = [];
  const { locale: dataLocale, data } = splitDataLocale(model, access.ruledData(model, 'create', dataOf(request.body), problems, request.alsoWritten));
  if (dataLocale !== undefined && !model.localized) problems.push({ path: ['locale'], message: `locale cannot be written: ${model.displayName} is not localized` });
  // A new entry is a draft when it is created as one, as Strapi decides before checking it.
  const draft = model.draftAndPublish && data.publishedAt === null;
  const parse = (given: Record<string, unknown>, found: DataProblem[]) => parseData(engine, grants, model, given, { partial: false, path: [], draft: model.draftAndPublish && given.publishedAt === null }, found);
  const parsed = parseData(engine, grants, model, data, { partial: false, path: [], draft }, problems);
  if (problems.length) throw new DataValidationError(problems);
  const queryLocale = request.query.locale;
  const locale = model.localized ? checkLocale(await engine.locales(), dataLocale ?? queryLocale ?? engine.registry.i18n.defaultLocale) : null;
  let published: LifecycleAction | null = null;
  const id = await inTransaction(engine, { locks: lockNamesOf(engine, parsed), deadline: request.deadline, access }, async (store) => {
    await guard?.(store);
    const hooked = await runBeforeHooks(engine, request, 'create', data, null, parse, { store, locked: lockNamesOf(engine, parsed) });
    published = hooked.publication;
    const write = hooked.write ?? parsed;
    await checkReferences(store, write, null);
    const created = await insertRow(store, write, newEntryColumns(store, model, write, locale, request.publishes !== false));
    if (write.relations.some((change) => change.attribute.name === 'localizations')) await linkListedLocalizations(store, model, created);
    await request.alsoWrite?.(store, created);
    await access.mustStillMatch(store.trx, model, created, 'create');
    await recordEvents(engine, store, model, ['create', published], created);
    return created;
  });
  engine.outbox?.committed();
  const answer = await answerOf(engine, { ...request, id });
  await runAfterHooks(engine, request, 'create', published, () => answeredEntry(answer.body), id);
  return answer;
}

/** Timestamps, and the publication and locale of a new entry. */
export function newEntryColumns(store: RowStore, model: Model, write: RowWrite, locale: string | null, published = true): Record<string, unknown> {
  const columns: Record<string, unknown> = { created_at: store.now, updated_at: store.now };
  if (model.draftAndPublish && write.values.publishedAt === undefined) columns.published_at = published ? store.now : null;
  if (locale !== null) columns.locale = locale;
  return columns;
}

/** `PUT /<plural>/:id`: the attributes given change, the others stay. */
export async function updateEntry(engine: WriteEngine, request: WriteRequest & { readonly id: number }, grants: Grants): Promise<ReadResult> {
  const { model, id } = request;
  const access = writeAccess(engine, request, grants);
  const problems: DataProblem[] = [];
  const { locale: dataLocale, data: rest } = splitDataLocale(model, access.ruledData(model, 'update', dataOf(request.body), problems, request.alsoWritten));
  if (dataLocale !== undefined) {
    problems.push({ path: ['locale'], message: model.localized ? 'locale cannot be changed; create a localization instead' : `locale cannot be written: ${model.displayName} is not localized` });
  }
  // Strapi's update drops `localizations`: a group changes only when an entry is created.
  if (model.localized) delete rest.localizations;
  // An entry is checked as the draft it is before the change, as Strapi does (publishing one with
  // missing values included).
  const draft = model.draftAndPublish && (await isDraftEntry(engine, model, id));
  const parsed = parseData(engine, grants, model, rest, { partial: true, path: [], draft }, problems);
  let published: LifecycleAction | null = null;
  await inTransaction(engine, { locks: lockNamesOf(engine, parsed), deadline: request.deadline, access }, async (store) => {
    await mustExist(store, model, id);
    await access.mustReach(store.trx, model, id, 'update');
    if (problems.length) throw new DataValidationError(problems);
    // Whether the entry was published, for the publish and unpublish events: read only when someone hears of them.
    const was = model.draftAndPublish && (engine.lifecycles.heard(model) || engine.outbox?.wants(model, ['publish', 'unpublish'])) ? ((await store.trx(model.tableName).where({ id }).first('published_at')) as { published_at: unknown }).published_at !== null : false;
    const hooked = await runBeforeHooks(engine, request, 'update', rest, was, (given, found) => parseData(engine, grants, model, given, { partial: true, path: [], draft }, found), { store, locked: lockNamesOf(engine, parsed) }, { id });
    published = hooked.publication;
    const write = hooked.write ?? parsed;
    await checkReferences(store, write, id);
    await updateRow(store, write, id, { updated_at: store.now });
    if (model.localized && populatesLocalizations(request.query)) await shareWithLocalizations(store, model, id);
    await request.alsoWrite?.(store, id);
    await access.mustStillMatch(store.trx, model, id, 'update');
    await recordEvents(engine, store, model, ['update', published], id);
  });
  engine.outbox?.committed();
  const answer = await answerOf(engine, request);
  await runAfterHooks(engine, request, 'update', published, () => answeredEntry(answer.body), id);
  return answer;
}

/** Whether the entry `id` is a draft; an entry that does not exist is not (the write's transaction finds it missing). */
async function isDraftEntry(engine: WriteEngine, model: Model, id: number): Promise<boolean> {
  const row = (await engine.knex(model.tableName).where({ id }).first('published_at')) as { published_at: unknown } | undefined;
  return row !== undefined && row.published_at === null;
}

/** `DELETE /<plural>/:id`: answers the entry as it was, then deletes it with its components and links. */
export async function deleteEntry(engine: WriteEngine, request: WriteRequest & { readonly id: number }): Promise<ReadResult> {
  const answer = await answerOf(engine, request);
  try {
    const access = writeAccess(engine, request, grantsFor(request.rules.permissions, request.role));
    await inTransaction(engine, { locks: [request.model.tableName], deadline: request.deadline, access }, async (store) => {
      await mustExist(store, request.model, request.id);
      await access.mustReach(store.trx, request.model, request.id, 'delete');
      if (engine.lifecycles.hooked(request.model)) {
        await engine.lifecycles.before(request.model, engine.lifecycles.event(request.model, 'delete', request.role, request.hooks, { id: request.id, entry: answeredEntry(answer.body) }));
      }
      await recordEvents(engine, store, request.model, ['delete'], request.id);
      await deleteRow(store, request.model, request.id);
    });
  } catch (error) {
    answer.release?.();
    throw error;
  }
  engine.outbox?.committed();
  await runAfterHooks(engine, request, 'delete', null, () => answeredEntry(answer.body), request.id);
  return answer;
}

async function mustExist(store: RowStore, model: Model, id: number): Promise<void> {
  const query = store.trx(model.tableName).where({ id }).first('id');
  if (store.client !== 'sqlite') query.forUpdate();
  if (!(await query)) throw new NotFoundError();
}
