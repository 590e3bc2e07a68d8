/**
 * Seeded randomness for the fuzz tests: the same seed gives the same inputs on every run, so a
 * failing input can be replayed.
 */

/** mulberry32: a small PRNG returning numbers in [0, 1). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Picks an item of a list with `random`. */
export function picker(random: () => number): <T>(list: readonly T[]) => T {
  return (list) => list[Math.floor(random() * list.length)];
}
