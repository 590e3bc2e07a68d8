/**
 * The codes the account flows mail, shaped and stored as Strapi stores them: a reset code is 64
 * random bytes in hex (`up_users.reset_password_token`), a confirmation code 20 (`confirmation_token`).
 *
 * A reset code also expires, which Strapi's never do: its first 6 bytes are the time it was made
 * (epoch ms), the other 58 random. The time needs no protection: a code is only accepted when it
 * equals the stored one, so it cannot be altered. A code Strapi made reads as a random time,
 * almost always in the future or long past, and is refused as expired.
 */
import { randomBytes } from 'node:crypto';

const TIME_BYTES = 6;

/** A new reset code, made at `now` (epoch ms). */
export function newResetCode(now: number): string {
  const time = Buffer.alloc(TIME_BYTES);
  time.writeUIntBE(Math.max(0, Math.floor(now)), 0, TIME_BYTES);
  return Buffer.concat([time, randomBytes(64 - TIME_BYTES)]).toString('hex');
}

/** Whether a code of Strapi's shape made its time within `lifetimeMs` before `now`. */
export function resetCodeInForce(code: string, now: number, lifetimeMs: number): boolean {
  if (!/^[0-9a-f]{128}$/.test(code)) return false;
  const madeAt = Buffer.from(code.slice(0, TIME_BYTES * 2), 'hex').readUIntBE(0, TIME_BYTES);
  return madeAt <= now && now - madeAt < lifetimeMs;
}

/** A new confirmation code, as Strapi makes it. */
export function newConfirmationCode(): string {
  return randomBytes(20).toString('hex');
}
