/**
 * Every moment of the demo data is an offset from one fixed date, never the clock: seeding today
 * or next year writes the same timestamps.
 */

/** 2024-01-08 09:00 UTC: the demo site's first upload. */
const DEMO_EPOCH_MS = Date.UTC(2024, 0, 8, 9, 0, 0);

const HOUR_MS = 3_600_000;

/** The moment `hours` after the demo epoch (fractions allowed). */
export function demoMoment(hours: number): Date {
  return new Date(DEMO_EPOCH_MS + Math.round(hours * HOUR_MS));
}

/** `YYYY-MM-DD` of the UTC day `days` after the demo epoch. */
export function demoDate(days: number): string {
  return demoMoment(days * 24).toISOString().slice(0, 10);
}

/** `HH:mm:ss.SSS`, as time columns hold it. */
export function clockTime(hours: number, minutes: number, seconds = 0): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${pad(hours)}:${pad(minutes)}:${pad(seconds)}.000`;
}

/** `created_at`/`updated_at` of an entry created `hours` after the epoch and edited `editedAfter` hours later. */
export function timestamps(hours: number, editedAfter = 0): { created_at: Date; updated_at: Date } {
  return { created_at: demoMoment(hours), updated_at: demoMoment(hours + editedAfter) };
}
