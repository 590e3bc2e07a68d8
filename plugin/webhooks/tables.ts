/**
 * The outbox's own tables, beside the content's: events (one row per event of a committed write),
 * deliveries (one per event and target, the unit the deliverer sends and retries) and attempts
 * (one per request sent). Times are epoch milliseconds on both engines. They are created by sync
 * when webhooks.yaml declares targets, never on a database served with sync off.
 */
import type { Knex } from 'knex';

export const EVENTS_TABLE = 'content_api_webhook_events';
export const DELIVERIES_TABLE = 'content_api_webhook_deliveries';
export const ATTEMPTS_TABLE = 'content_api_webhook_attempts';

export type DeliveryState = 'pending' | 'delivered' | 'failed';

export async function hasWebhookTables(knex: Knex): Promise<boolean> {
  for (const table of [EVENTS_TABLE, DELIVERIES_TABLE, ATTEMPTS_TABLE]) if (!(await knex.schema.hasTable(table))) return false;
  return true;
}

/** Creates the tables that are missing; answers their names. */
export async function createWebhookTables(knex: Knex): Promise<string[]> {
  const created: string[] = [];
  if (!(await knex.schema.hasTable(EVENTS_TABLE))) {
    await knex.schema.createTable(EVENTS_TABLE, (table) => {
      table.increments('id');
      table.string('event_id', 36).notNullable().unique();
      table.string('event', 32).notNullable();
      table.string('uid', 255).nullable();
      table.text('payload').notNullable();
      table.bigInteger('created_at').notNullable();
    });
    created.push(EVENTS_TABLE);
  }
  if (!(await knex.schema.hasTable(DELIVERIES_TABLE))) {
    await knex.schema.createTable(DELIVERIES_TABLE, (table) => {
      table.increments('id');
      table.integer('event_row').notNullable().index();
      table.string('target', 255).notNullable();
      table.string('state', 16).notNullable();
      table.integer('attempts').notNullable().defaultTo(0);
      // Retried until `since` + retryFor; `since` is the event's time, or a manual retry's.
      table.bigInteger('since').notNullable();
      table.bigInteger('next_attempt_at').notNullable();
      table.bigInteger('finished_at').nullable();
      table.integer('last_status').nullable();
      table.text('last_error').nullable();
      // The deliverer's question: the oldest pending delivery of each target.
      table.index(['state', 'target', 'id']);
    });
    created.push(DELIVERIES_TABLE);
  }
  if (!(await knex.schema.hasTable(ATTEMPTS_TABLE))) {
    await knex.schema.createTable(ATTEMPTS_TABLE, (table) => {
      table.increments('id');
      table.integer('delivery_id').notNullable().index();
      table.bigInteger('attempted_at').notNullable();
      table.integer('duration_ms').notNullable();
      table.integer('status').nullable();
      table.text('error').nullable();
    });
    created.push(ATTEMPTS_TABLE);
  }
  return created;
}
