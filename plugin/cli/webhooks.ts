/**
 * `content-api webhooks list | deliveries | retry <id>`: the targets of webhooks.yaml with their
 * deliveries counted, the latest deliveries with their last attempt, and a delivery sent again
 * (pending now, retried for the full retryFor from now; the running servers pick it up at their
 * next round). They read the database and the file's targets only: the environment variables the
 * file names (secrets) need not be set, and no value of one is printed.
 */
import { join } from 'node:path';
import type { Knex } from 'knex';
import { loadSchema } from '../schema/load.js';
import { loadWebhooks, NO_WEBHOOKS, type WebhookTarget } from '../webhooks/config.js';
import { WEBHOOKS_FILE } from '../webhooks/check-file.js';
import { DELIVERIES_TABLE, EVENTS_TABLE, hasWebhookTables } from '../webhooks/tables.js';
import { openDatabase } from '../storage/database.js';
import { commandHelp, parseCommand, SCHEMA_AND_DATABASE, SCHEMA_AND_DATABASE_HELP, UsageError } from './common.js';

const OPTIONS = {
  ...SCHEMA_AND_DATABASE,
  target: { type: 'string' },
  state: { type: 'string' },
  limit: { type: 'string', default: '20' },
} as const;

const USAGE = commandHelp('webhooks list | deliveries [--target NAME] [--state pending|delivered|failed] [--limit N] | retry <id> [--root DIR] [--database URL]', OPTIONS, {
  ...SCHEMA_AND_DATABASE_HELP,
  target: ['NAME', 'deliveries: only those of this target'],
  state: ['STATE', 'deliveries: only those pending, delivered or failed'],
  limit: ['N', 'deliveries: how many, newest first (default 20)'],
});

export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseCommand(args, OPTIONS, USAGE, true);
  const [action, id, ...rest] = positionals;
  if (!action || !['list', 'deliveries', 'retry'].includes(action) || rest.length || (action === 'retry') !== (id !== undefined)) {
    throw new UsageError('expected list, deliveries, or retry <delivery id>', USAGE);
  }
  const registry = await loadSchema(values.root);
  const config = (await loadWebhooks(join(values.root, WEBHOOKS_FILE), WEBHOOKS_FILE, registry, process.env, { unsetVariables: 'allow' })) ?? NO_WEBHOOKS;
  // A database to look into, never one to create.
  const knex = openDatabase(values.database, { mustExist: true, poolSize: 1 });
  try {
    if (!(await hasWebhookTables(knex))) {
      process.stderr.write(`content-api webhooks: the database has no webhook tables (content-api sync creates them when ${WEBHOOKS_FILE} declares targets)\n`);
      return 1;
    }
    if (action === 'list') return await list(knex, config.targets);
    if (action === 'deliveries') return await deliveries(knex, values.target, values.state, Number(values.limit));
    return await retry(knex, id!);
  } finally {
    await knex.destroy();
  }
}

async function list(knex: Knex, targets: readonly WebhookTarget[]): Promise<number> {
  const counts = (await knex(DELIVERIES_TABLE).select('target', 'state').count({ n: '*' }).groupBy('target', 'state')) as { target: string; state: string; n: number | string }[];
  const countOf = (target: string, state: string) => Number(counts.find((row) => row.target === target && row.state === state)?.n ?? 0);
  const names = [...new Set([...targets.map((target) => target.name), ...counts.map((row) => row.target)])];
  if (!names.length) process.stdout.write(`no webhook targets in ${WEBHOOKS_FILE}\n`);
  for (const name of names) {
    const target = targets.find((item) => item.name === name);
    // The URL as written: a variable in it may hold a secret.
    const where = target ? `${target.writtenUrl ?? target.url} (${[...target.events].join(', ')})` : `(no longer in ${WEBHOOKS_FILE})`;
    const unset = target?.unset?.length ? `  ${target.unset.map((variable) => `${variable.key} \${${variable.name}} (not set)`).join(', ')}` : '';
    process.stdout.write(`${name}  ${where}  pending ${countOf(name, 'pending')}, delivered ${countOf(name, 'delivered')}, failed ${countOf(name, 'failed')}${unset}\n`);
  }
  return 0;
}

async function deliveries(knex: Knex, target: string | undefined, state: string | undefined, limit: number): Promise<number> {
  if (!Number.isInteger(limit) || limit < 1) throw new UsageError('--limit expects a number above 0', USAGE);
  if (state !== undefined && !['pending', 'delivered', 'failed'].includes(state)) throw new UsageError('--state expects pending, delivered or failed', USAGE);
  const query = knex(`${DELIVERIES_TABLE} as d`)
    .join(`${EVENTS_TABLE} as e`, 'e.id', 'd.event_row')
    .orderBy('d.id', 'desc')
    .limit(limit)
    .select('d.id', 'd.target', 'd.state', 'd.attempts', 'd.last_status', 'd.last_error', 'e.event', 'e.uid', 'e.event_id', 'e.created_at');
  if (target) query.where('d.target', target);
  if (state) query.where('d.state', state);
  const rows = (await query) as { id: number; target: string; state: string; attempts: number; last_status: number | null; last_error: string | null; event: string; uid: string | null; event_id: string; created_at: number | string }[];
  for (const row of rows) {
    const last = row.last_status !== null ? ` last ${row.last_status}` : '';
    const error = row.last_error ? ` (${row.last_error.slice(0, 120)})` : '';
    process.stdout.write(`${row.id}  ${new Date(Number(row.created_at)).toISOString()}  ${row.target}  ${row.event}${row.uid ? ` ${row.uid}` : ''}  ${row.state}, ${row.attempts} attempt${Number(row.attempts) === 1 ? '' : 's'}${last}${error}  event ${row.event_id}\n`);
  }
  if (!rows.length) process.stdout.write('no deliveries\n');
  return 0;
}

async function retry(knex: Knex, text: string): Promise<number> {
  const id = Number(text);
  if (!Number.isInteger(id) || id < 1) throw new UsageError(`retry expects a delivery id, got "${text}"`, USAGE);
  const now = Date.now();
  const changed = await knex(DELIVERIES_TABLE).where({ id }).update({ state: 'pending', since: now, next_attempt_at: now, finished_at: null });
  if (!changed) {
    process.stderr.write(`content-api webhooks: no delivery ${id}\n`);
    return 1;
  }
  process.stdout.write(`delivery ${id} is pending again: the servers delivering webhooks send it at their next round\n`);
  return 0;
}
