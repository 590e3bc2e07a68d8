/**
 * `POST /auth/change-password`, as Strapi's users-permissions answers it for the user of a login
 * token: the body's checks, the current password compared, a new one that differs, then the
 * user type's checks on it; answered `{ jwt, user }` with the user as found, before the write.
 * Earlier tokens stay valid, as in Strapi.
 */
import bcrypt from 'bcryptjs';
import { ValidationError } from '../errors.js';
import type { WriteEngine } from '../write/write.js';
import { parseChangePasswordBody } from './body.js';
import type { EndUsers, LoginAnswer } from './end-users.js';
import type { StoredUser } from './user-store.js';
import { writePassword } from './user-writes.js';

export async function changePassword(engine: WriteEngine, users: EndUsers, user: StoredUser, body: unknown, deadline: number): Promise<LoginAnswer> {
  const { currentPassword, password } = parseChangePasswordBody(body);
  // A user of another provider has no password to give: as a wrong one (Strapi fails with a 500).
  const valid = user.passwordHash !== null && (await bcrypt.compare(currentPassword, user.passwordHash));
  if (!valid) throw new ValidationError('The provided current password is invalid');
  if (currentPassword === password) throw new ValidationError('Your new password must be different than your current password');
  await writePassword(engine, users.store, user.id, password, deadline);
  return users.answerFor(user);
}
