/**
 * Webhooks of an API: webhooks.yaml loaded (and reloaded when it changes, a broken edit keeping
 * the webhooks in force), the outbox the writes record their events in, and the deliverer.
 *
 *   write's transaction ──outbox rows──▶ commit ──wake──▶ deliverer ──POST, signed──▶ target
 *
 * The outbox tables are created by sync when the file declares targets; on a database served with
 * sync off they must exist already (`content-api sync` creates them), else the API refuses to
 * start, as it would with any other table missing.
 */
import type { Knex } from 'knex';
import { watchFile, type FileWatcher } from '../access/watch-file.js';
import type { QueryLimits } from '../query/parse.js';
import type { Registry } from '../schema/registry.js';
import type { Dialect } from '../sql/dialect/dialect.js';
import { stringify } from 'yaml';
import { loadWebhooks, NO_WEBHOOKS, parseWebhooks, type WebhookConfig, type WebhookEvent } from './config.js';
import { Deliverer, type DelivererOptions } from './deliverer.js';
import { Outbox } from './outbox.js';
import { createWebhookTables, hasWebhookTables } from './tables.js';

export interface WebhooksOption extends DelivererOptions {
  /** The file (default `<root>/webhooks.yaml`); without it, no webhooks. */
  readonly file?: string;
  /**
   * Targets given in code, as webhooks.yaml writes them (`{ search: { url, events, secret? } }`),
   * instead of the file, which is then neither read nor watched; values are taken as they are
   * (no `${NAME}` from the environment). `{}`: no webhooks, whatever the file says.
   */
  readonly targets?: Readonly<Record<string, WebhookTargetOption>>;
  /** Deliver from this process (default true). Off where another process delivers (SQLite: one process delivers). */
  readonly deliver?: boolean;
  /** Re-read the file when it changes (default: as `watchPermissions`, true). */
  readonly watch?: boolean;
  /** Told when a changed file does not load (the webhooks in force stay); default: stderr. */
  readonly onReloadError?: (error: unknown) => void;
}

/** A target as webhooks.yaml writes it. */
export interface WebhookTargetOption {
  readonly url: string;
  readonly events: readonly WebhookEvent[];
  readonly secret?: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly types?: readonly string[];
}

export interface WebhooksContext {
  readonly knex: Knex;
  readonly registry: Registry;
  readonly dialect: Dialect;
  readonly limits: QueryLimits;
  /** Whether the tables may be created (the API's `sync`). */
  readonly sync: boolean;
}

export interface Webhooks {
  readonly outbox: Outbox;
  /** The webhooks in force. */
  config(): WebhookConfig;
  /** Reads webhooks.yaml again; a file that does not load throws, and the webhooks in force stay. */
  reload(): Promise<void>;
  /** Sends every delivery due now, in this call (tests, and a process that does not deliver on its own). */
  drain(): Promise<number>;
  /** Deletes the deliveries finished longer than `retention` ago (done once a minute while delivering); answers how many. */
  prune(): Promise<number>;
  close(): Promise<void>;
}

/** The file's targets need the outbox tables: created when syncing, else required. */
async function prepareTables(context: WebhooksContext, config: WebhookConfig, file: string): Promise<void> {
  if (!config.targets.length) return;
  if (context.sync) await createWebhookTables(context.knex);
  else if (!(await hasWebhookTables(context.knex))) {
    throw new Error(`${file} declares webhook targets, but the database has no webhook tables and sync is off: run "content-api sync" (it creates them), or start with sync`);
  }
}

/** Targets given in code, checked as the file's are (a problem names `webhooks.targets`). */
function givenConfig(targets: Readonly<Record<string, WebhookTargetOption>>, registry: Registry): WebhookConfig {
  if (!Object.keys(targets).length) return NO_WEBHOOKS;
  return parseWebhooks(stringify({ targets }), 'the webhooks.targets option', registry, {});
}

export async function startWebhooks(context: WebhooksContext, file: string, option: WebhooksOption = {}): Promise<Webhooks> {
  if (option.targets) return runWebhooks(context, 'the webhooks.targets option', givenConfig(option.targets, context.registry), option, null);
  const config = (await loadWebhooks(file, 'webhooks.yaml', context.registry)) ?? NO_WEBHOOKS;
  return runWebhooks(context, file, config, option, async () => (await loadWebhooks(file, 'webhooks.yaml', context.registry)) ?? NO_WEBHOOKS);
}

/** `load`: reads the targets again (null: they were given in code, and are not reloaded). */
async function runWebhooks(context: WebhooksContext, file: string, initial: WebhookConfig, option: WebhooksOption, load: (() => Promise<WebhookConfig>) | null): Promise<Webhooks> {
  let config = initial;
  await prepareTables(context, config, file);
  const deliverer = new Deliverer(context.knex, () => config, option);
  const deliver = option.deliver !== false;
  const startIfNeeded = () => {
    if (deliver && config.targets.length) deliverer.start();
  };
  startIfNeeded();
  const outbox = new Outbox({ registry: context.registry, dialect: context.dialect, limits: context.limits, config: () => config, wake: () => deliverer.wake() });
  const reload = async () => {
    if (!load) return;
    const loaded = await load();
    await prepareTables(context, loaded, file);
    config = loaded;
    startIfNeeded();
  };
  const reportReloadError = option.onReloadError ?? ((error: unknown) => process.stderr.write(`webhooks.yaml not reloaded, the webhooks in force stay:\n${error instanceof Error ? error.message : String(error)}\n`));
  const watcher: FileWatcher | null = option.watch === false || !load ? null : watchFile(file, () => reload().catch(reportReloadError));
  return {
    outbox,
    config: () => config,
    reload,
    drain: () => (config.targets.length ? deliverer.drain() : Promise.resolve(0)),
    prune: () => (config.targets.length ? deliverer.prune() : Promise.resolve(0)),
    async close() {
      watcher?.close();
      await deliverer.stop();
    },
  };
}
