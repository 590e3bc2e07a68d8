/**
 * At most `size` tasks at once, and at most `capacity` of weight among them, the others waiting
 * in order. Image work runs in libuv's thread pool (sharp), off the event loop; bounding it keeps
 * a burst of uploads from taking every pool thread that file and DNS work — and the reads beside
 * them — also need. An image's weight is its pixel count, and the memory its decoding and
 * encoding take grows with it: a capacity of one image's budget lets small images share the
 * slots while a large one runs alone, so the memory of image work in flight stays that of one
 * large image whatever `size` is. A task heavier than the capacity runs alone.
 */
export class Limiter {
  private running = 0;
  private weight = 0;
  private readonly waiting: { weight: number; start: () => void }[] = [];

  constructor(
    private readonly size: number,
    private readonly capacity = Number.POSITIVE_INFINITY,
  ) {}

  async run<T>(task: () => Promise<T>, weight = 0): Promise<T> {
    // In order: a task waits while others do, so a heavy one is never passed over for good.
    if (this.waiting.length || !this.fits(weight)) await new Promise<void>((start) => this.waiting.push({ weight, start }));
    else this.admit(weight);
    try {
      return await task();
    } finally {
      this.running--;
      this.weight -= weight;
      this.startWaiting();
    }
  }

  private fits(weight: number): boolean {
    return this.running === 0 || (this.running < this.size && this.weight + weight <= this.capacity);
  }

  /** Counted when admitted, not when the task's code first runs, so two releases cannot admit past the bounds. */
  private admit(weight: number): void {
    this.running++;
    this.weight += weight;
  }

  private startWaiting(): void {
    while (this.waiting.length && this.fits(this.waiting[0].weight)) {
      const next = this.waiting.shift()!;
      this.admit(next.weight);
      next.start();
    }
  }
}
