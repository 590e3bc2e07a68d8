/**
 * The outbox: a write's events are rows written by the write's own transaction, so that an event
 * exists exactly when its write committed — a crash between the commit and the delivery loses
 * nothing, and a write that rolls back leaves no event. One event row holds the payload, built
 * then (the entry as the write left it); one delivery row per target that wants it is what the
 * deliverer (deliverer.ts) sends.
 */
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { authorize } from '../access/authorize.js';
import { rawRows } from '../storage/database.js';
import { positionalStatement } from '../sql/positional.js';
import { parseQuery, type QueryLimits } from '../query/parse.js';
import type { Model, Registry } from '../schema/registry.js';
import { compileRequest, FIND_ONE_ID_INDEX, type Statement } from '../sql/compile.js';
import type { Dialect } from '../sql/dialect/dialect.js';
import { targetsFor, type WebhookConfig, type WebhookEvent } from './config.js';
import { DELIVERIES_TABLE, EVENTS_TABLE } from './tables.js';

export type EntryAction = 'create' | 'update' | 'delete' | 'publish' | 'unpublish';
export type MediaAction = 'create' | 'update' | 'delete';

export interface OutboxContext {
  readonly registry: Registry;
  readonly dialect: Dialect;
  readonly limits: QueryLimits;
  /** The webhooks in force (webhooks.yaml, reloaded live). */
  readonly config: () => WebhookConfig;
  /** Told after a transaction that recorded events committed: the deliverer looks now rather than at its next round. */
  readonly wake: () => void;
}

export class Outbox {
  /** Per type uid: the statement reading an entry as a webhook sends it. */
  private readonly statements = new Map<string, Statement>();

  constructor(private readonly context: OutboxContext) {}

  /** Whether a target wants one of the entry events of the type: a write nobody wants writes no row and reads nothing more. */
  wants(model: Model, actions: readonly EntryAction[] = ['create', 'update', 'delete', 'publish', 'unpublish']): boolean {
    const config = this.context.config();
    return actions.some((action) => targetsFor(config, `entry.${action}`, model.uid).length > 0);
  }

  /**
   * Records the entry events of a write, in its transaction: for a create or update after its
   * statements, for a delete before them (the entry is read as it was). The entry is read here,
   * once for all its events, as the API answers `GET /<plural>/:id` with no `populate` (Strapi's
   * webhook entry): its attributes flat beside its id, private and password attributes left out.
   */
  async recordEntryEvents(trx: Knex.Transaction, model: Model, actions: readonly EntryAction[], id: number, now: Date): Promise<void> {
    const config = this.context.config();
    const wanted = actions.map((action) => ({ event: `entry.${action}` as const, targets: targetsFor(config, `entry.${action}`, model.uid) })).filter((item) => item.targets.length);
    if (!wanted.length) return;
    const entry = await this.readEntry(trx, model, id);
    for (const { event, targets } of wanted) {
      const payload = { event, createdAt: now.toISOString(), model: model.singularName, uid: model.uid, entry };
      await insertEvent(trx, event, model.uid, payload, targets.map((target) => target.name), now.getTime());
    }
  }

  /**
   * Records a media event (`media.create`, `media.update`, `media.delete`) in the transaction that
   * writes the file's row: `media` is the file as the API answers it (Strapi's payload key).
   */
  async recordMediaEvent(trx: Knex.Transaction, action: MediaAction, media: Record<string, unknown>, now = new Date()): Promise<void> {
    const event = `media.${action}` as const;
    const targets = targetsFor(this.context.config(), event, null);
    if (!targets.length) return;
    await insertEvent(trx, event, null, { event, createdAt: now.toISOString(), media }, targets.map((target) => target.name), now.getTime());
  }

  /**
   * Records a media event for the file `id` as the API answers it, read in the transaction that
   * writes it (for a deletion, before its row goes): what the media library's routes call.
   */
  async recordFileEvent(trx: Knex.Transaction, action: MediaAction, id: number, now = new Date()): Promise<void> {
    if (!targetsFor(this.context.config(), `media.${action}`, null).length) return;
    const media = await this.readEntry(trx, this.context.registry.file, id);
    if (media) await this.recordMediaEvent(trx, action, media, now);
  }

  /** After the commit of a transaction that may have recorded events. */
  committed(): void {
    this.context.wake();
  }

  private async readEntry(trx: Knex.Transaction, model: Model, id: number): Promise<Record<string, unknown> | null> {
    const statement = this.statementOf(model);
    const values = [...statement.values];
    values[FIND_ONE_ID_INDEX] = id;
    const { sql, values: bindings } = positionalStatement(statement.sql, values, { forKnex: this.context.dialect });
    const rows = rawRows<{ entry: unknown }>(trx, await trx.raw(sql, bindings as Knex.RawBinding[]));
    if (!rows.length) return null;
    const text = rows[0]!.entry;
    const { id: entryId, attributes } = JSON.parse(Buffer.isBuffer(text) ? text.toString('utf8') : String(text)) as { id: number; attributes: Record<string, unknown> };
    return { id: entryId, ...attributes };
  }

  private statementOf(model: Model): Statement {
    let statement = this.statements.get(model.uid);
    if (!statement) {
      const tree = parseQuery(this.context.registry, { model, action: 'findOne', id: 0, query: {} }, this.context.limits);
      // No populate: nothing but the type's own attributes, which the read pipeline gives without private ones.
      const everything = { role: 'webhooks', can: () => true, rule: () => null };
      // Without SQLite's checkpoint: a statement of the write's transaction is not the read workers' to
      // cancel, and a host's knex connection may lack the function.
      const dialect = { ...this.context.dialect, checkpoint: null };
      statement = compileRequest(dialect, authorize({ ...tree, publicationState: 'preview' }, everything)).entries;
      this.statements.set(model.uid, statement);
    }
    return statement;
  }
}

async function insertEvent(trx: Knex.Transaction, event: WebhookEvent, uid: string | null, payload: object, targets: readonly string[], now: number): Promise<void> {
  const [row] = (await trx(EVENTS_TABLE).insert({ event_id: randomUUID(), event, uid, payload: JSON.stringify(payload), created_at: now }, ['id'])) as ({ id: number } | number)[];
  const eventRow = typeof row === 'object' ? row.id : row;
  await trx(DELIVERIES_TABLE).insert(targets.map((target) => ({ event_row: eventRow, target, state: 'pending', attempts: 0, since: now, next_attempt_at: now })));
}
