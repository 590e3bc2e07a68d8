/**
 * How a `password` attribute is stored: a bcrypt hash at Strapi's cost, the same for writes through
 * the API and for data files, so that a user written either way can log in.
 */
import bcrypt from 'bcryptjs';

/** Strapi's cost for password hashes. */
export const BCRYPT_ROUNDS = 10;

/** `$2a$`/`$2b$`/`$2y$`, a two-digit cost and 53 characters of salt and hash. */
const BCRYPT_HASH = /^\$2[aby]\$\d{2}\$[./A-Za-z0-9]{53}$/;

export function hashPassword(password: string): Promise<string> {
  return bcrypt.hash(password, BCRYPT_ROUNDS);
}

/** Whether a value is already a bcrypt hash (a data file may hold one copied from a database). */
export function isPasswordHash(value: string): boolean {
  return BCRYPT_HASH.test(value);
}
