/**
 * At most `size` tasks at once, the others waiting in order. Image work runs in libuv's thread pool
 * (sharp), off the event loop; bounding it keeps a burst of uploads from taking every pool thread
 * that file and DNS work — and the reads beside them — also need.
 */
export class Limiter {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly size: number) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.size) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.running++;
    try {
      return await task();
    } finally {
      this.running--;
      this.waiting.shift()?.();
    }
  }
}
