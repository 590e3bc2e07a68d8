/**
 * The delivery worker: in rounds, it takes the oldest pending delivery of each target (a target's
 * events go out in the order they were written: the next waits until the one before is delivered
 * or given up), sends it, and records the attempt. A failed attempt is tried again after an
 * exponential backoff with jitter, until `retryFor` has passed since the event; then the delivery
 * is `failed`. Rounds run when a write commits (wake) and on a timer, and finished deliveries
 * older than `retention` are pruned.
 *
 * On PostgreSQL each delivery is claimed with `FOR UPDATE SKIP LOCKED` and its lock held while it
 * is sent: any number of processes deliver side by side, each event once per target, and a
 * process that dies mid-send releases its claim with its connection. On SQLite, whose writers
 * would wait behind such a lock, a claim is a lease (its next attempt moved past the send's
 * timeout by one UPDATE) and one process delivers (serve's primary with --workers); the lease
 * keeps a second deliverer (an API being replaced by serve --watch) from sending it too.
 */
import type { Knex } from 'knex';
import { clientOf } from '../storage/database.js';
import type { WebhookConfig, WebhookTarget } from './config.js';
import { sendEvent, type Attempt } from './send.js';
import { ATTEMPTS_TABLE, DELIVERIES_TABLE, EVENTS_TABLE } from './tables.js';

export interface DelivererOptions {
  /** Longest wait between rounds when nothing wakes the worker (default 1000 ms): writes of other processes are seen then. */
  readonly pollInterval?: number;
  /** The first retry's delay (default 1000 ms); each next one doubles, up to `maxRetryDelay` (default 1 hour). */
  readonly retryDelay?: number;
  readonly maxRetryDelay?: number;
  /** Targets sent to at once (default 4). */
  readonly concurrency?: number;
  /** Where a failure of the worker itself (the database gone, …) is told. */
  readonly report?: (error: unknown) => void;
  readonly now?: () => number;
}

interface Head {
  readonly id: number;
  readonly target: string;
}

interface Claimed {
  readonly id: number;
  readonly target: string;
  readonly attempts: number;
  readonly since: number;
  readonly event_id: string;
  readonly event: string;
  readonly payload: string;
}

const PRUNE_EVERY_MS = 60_000;
/** How long past an attempt's timeout a SQLite lease lasts: the time to record the attempt. */
const LEASE_MARGIN_MS = 5_000;

export class Deliverer {
  private stopped = true;
  private woken = false;
  private wakeUp: (() => void) | null = null;
  private running: Promise<void> | null = null;
  private lastPrune = 0;
  /** The failure last reported: a database that stays down is reported once, not every round. */
  private lastFailure: string | null = null;
  private readonly now: () => number;

  constructor(
    private readonly knex: Knex,
    private readonly config: () => WebhookConfig,
    private readonly options: DelivererOptions = {},
  ) {
    this.now = options.now ?? Date.now;
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.running = this.loop();
  }

  /** A round now (a write committed, or a delivery was retried). */
  wake(): void {
    this.woken = true;
    this.wakeUp?.();
  }

  /** Stops after the attempts in flight end (each within its timeout). */
  async stop(): Promise<void> {
    this.stopped = true;
    this.wake();
    await this.running;
  }

  /** Runs rounds until nothing is due now; answers the attempts made (for tests and the CLI). */
  async drain(): Promise<number> {
    let total = 0;
    for (let made = await this.round(); made > 0; made = await this.round()) total += made;
    return total;
  }

  private async loop(): Promise<void> {
    while (!this.stopped) {
      this.woken = false;
      let made = 0;
      try {
        made = await this.round();
        if (this.now() - this.lastPrune >= PRUNE_EVERY_MS) await this.prune();
        this.lastFailure = null;
      } catch (error) {
        if (String(error) !== this.lastFailure) this.report(error);
        this.lastFailure = String(error);
      }
      if (this.stopped) break;
      if (made > 0 || this.woken) continue;
      await this.sleep(await this.untilNextDue().catch(() => this.pollInterval));
    }
  }

  private get pollInterval(): number {
    return this.options.pollInterval ?? 1000;
  }

  private report(error: unknown): void {
    (this.options.report ?? ((failure: unknown) => process.stderr.write(`webhook delivery: ${String(failure)}\n`)))(error);
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => done(), Math.max(1, ms));
      const done = () => {
        clearTimeout(timer);
        this.wakeUp = null;
        resolve();
      };
      this.wakeUp = done;
      if (this.woken || this.stopped) done();
    });
  }

  private async untilNextDue(): Promise<number> {
    const row = (await this.knex(DELIVERIES_TABLE).where({ state: 'pending' }).min({ next: 'next_attempt_at' }).first()) as { next: number | string | null } | undefined;
    if (row?.next === null || row?.next === undefined) return this.pollInterval;
    return Math.min(this.pollInterval, Math.max(0, Number(row.next) - this.now()));
  }

  /** One round: the due head of each target, sent side by side (a few at a time); answers the attempts made. */
  async round(): Promise<number> {
    const config = this.config();
    const targets = new Map(config.targets.map((target) => [target.name, target]));
    const heads = (await this.knex(DELIVERIES_TABLE)
      .whereIn('id', this.knex(DELIVERIES_TABLE).where({ state: 'pending' }).groupBy('target').min('id'))
      .andWhere('next_attempt_at', '<=', this.now())
      .orderBy('id')
      .select('id', 'target')) as Head[];
    // A target no longer declared keeps its deliveries pending, in case it comes back.
    const due = heads.filter((head) => targets.has(head.target));
    let made = 0;
    const concurrency = this.options.concurrency ?? 4;
    for (let start = 0; start < due.length && !this.stopped; start += concurrency) {
      const results = await Promise.all(due.slice(start, start + concurrency).map((head) => this.deliver(head, targets.get(head.target)!, config)));
      made += results.filter(Boolean).length;
    }
    return made;
  }

  /** Claims, sends and records one delivery; false when another process has it or it is no longer pending. */
  private async deliver(head: Head, target: WebhookTarget, config: WebhookConfig): Promise<boolean> {
    const claim = (query: Knex | Knex.Transaction) => {
      const select = query(`${DELIVERIES_TABLE} as d`)
        .join(`${EVENTS_TABLE} as e`, 'e.id', 'd.event_row')
        .where('d.id', head.id)
        .andWhere('d.state', 'pending')
        .first('d.id', 'd.target', 'd.attempts', 'd.since', 'e.event_id', 'e.event', 'e.payload');
      return (clientOf(this.knex) === 'postgres' ? select.forUpdate('d').skipLocked() : select) as Promise<Claimed | undefined>;
    };
    const attempt = async (trx: Knex | Knex.Transaction): Promise<boolean> => {
      const claimed = await claim(trx);
      if (!claimed) return false;
      const result = await sendEvent(target, { id: claimed.event_id, name: claimed.event, body: claimed.payload }, { ...config.delivery, now: this.now });
      await this.record(trx, claimed, result, config.delivery.retryFor);
      return true;
    };
    if (clientOf(this.knex) === 'postgres') return this.knex.transaction((trx) => attempt(trx));
    // SQLite: the claim is a lease, taken by one statement that only one process can win; a process
    // that dies mid-send leaves it to expire, and the delivery is tried again then.
    const now = this.now();
    const leased = await this.knex(DELIVERIES_TABLE)
      .where({ id: head.id, state: 'pending' })
      .andWhere('next_attempt_at', '<=', now)
      .update({ next_attempt_at: now + config.delivery.timeout + LEASE_MARGIN_MS });
    return leased > 0 && attempt(this.knex);
  }

  private async record(query: Knex | Knex.Transaction, claimed: Claimed, result: Attempt, retryFor: number): Promise<void> {
    const now = this.now();
    const attempts = claimed.attempts + 1;
    const givenUp = !result.ok && now - Number(claimed.since) >= retryFor;
    const state = result.ok ? 'delivered' : givenUp ? 'failed' : 'pending';
    const write = async (trx: Knex | Knex.Transaction) => {
      await trx(ATTEMPTS_TABLE).insert({ delivery_id: claimed.id, attempted_at: now, duration_ms: result.durationMs, status: result.status, error: result.error });
      await trx(DELIVERIES_TABLE)
        .where({ id: claimed.id })
        .update({
          state,
          attempts,
          last_status: result.status,
          last_error: result.error,
          finished_at: state === 'pending' ? null : now,
          next_attempt_at: state === 'pending' ? now + this.backoff(attempts) : now,
        });
    };
    if (clientOf(this.knex) === 'postgres') await write(query);
    else await this.knex.transaction(write);
  }

  /** The wait before attempt `attempts + 1`: doubling from `retryDelay`, capped, with half of it random so that retries spread out. */
  backoff(attempts: number): number {
    const base = this.options.retryDelay ?? 1000;
    const cap = this.options.maxRetryDelay ?? 3_600_000;
    const delay = Math.min(cap, base * 2 ** Math.min(attempts - 1, 30));
    return Math.round(delay / 2 + (Math.random() * delay) / 2);
  }

  /** Deletes the deliveries finished before the retention time, their attempts, and the events left without deliveries. */
  async prune(): Promise<number> {
    this.lastPrune = this.now();
    const cutoff = this.now() - this.config().delivery.retention;
    const finished = this.knex(DELIVERIES_TABLE).whereIn('state', ['delivered', 'failed']).andWhere('finished_at', '<', cutoff).select('id');
    await this.knex(ATTEMPTS_TABLE).whereIn('delivery_id', finished).delete();
    const pruned = await this.knex(DELIVERIES_TABLE).whereIn('state', ['delivered', 'failed']).andWhere('finished_at', '<', cutoff).delete();
    await this.knex(EVENTS_TABLE).whereNotExists(this.knex(DELIVERIES_TABLE).whereRaw('?? = ??', [`${DELIVERIES_TABLE}.event_row`, `${EVENTS_TABLE}.id`])).delete();
    return pruned;
  }
}
