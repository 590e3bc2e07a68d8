/**
 * Where reads go when there are read replicas: spread over the replicas in turn; the primary
 * only when no replica answers. A replica that fails to connect, or drops a statement's
 * connection, is set aside for a few seconds (its share goes to the others) and then tried again,
 * so a replica that comes back gets its share back without a restart.
 */

/** How long a replica that failed is skipped by default (ms). */
const SET_ASIDE_MS = 5_000;

export class ReadTargets<T> {
  private turn = 0;
  private readonly downUntil = new Map<T, number>();

  constructor(
    private readonly primary: T,
    private readonly replicas: readonly T[],
    private readonly setAsideMs = SET_ASIDE_MS,
  ) {}

  /** The targets in the order to try them for one statement: the replicas that answer (the next in turn first), the primary, then the replicas set aside. */
  order(): T[] {
    if (!this.replicas.length) return [this.primary];
    const start = this.turn++ % this.replicas.length;
    const rotated = [...this.replicas.slice(start), ...this.replicas.slice(0, start)];
    const now = Date.now();
    const up = rotated.filter((replica) => (this.downUntil.get(replica) ?? 0) <= now);
    const down = rotated.filter((replica) => (this.downUntil.get(replica) ?? 0) > now);
    return [...up, this.primary, ...down];
  }

  failed(target: T): void {
    if (target !== this.primary) this.downUntil.set(target, Date.now() + this.setAsideMs);
  }

  answered(target: T): void {
    this.downUntil.delete(target);
  }
}
