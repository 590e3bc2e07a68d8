/**
 * `POST /auth/local/register`, as Strapi's users-permissions does it: off unless enabled (its
 * ApplicationError), the body's own checks, the default role found, no user holding the email or
 * username (either way round), then the user type's checks (lengths, formats) and the row with its
 * role link in one transaction. The new user gets a token, unless email confirmation is on: then
 * it is created unconfirmed, answered without one, and sent the confirmation mail (`confirm`).
 */
import { ApplicationError } from '../errors.js';
import type { WriteEngine } from '../write/write.js';
import { parseRegisterBody } from './body.js';
import { insertUser, refuseNul } from './user-writes.js';
import type { StoredUser } from './user-store.js';
import type { EndUsers, LoginAnswer } from './end-users.js';

/** Keys a register body never sets, whatever the user type declares (Strapi's list). */
const NEVER_REGISTERED = new Set(['confirmed', 'blocked', 'confirmationToken', 'resetPasswordToken', 'provider', 'id', 'role', 'createdAt', 'updatedAt', 'createdBy', 'updatedBy', 'publishedAt']);

/** The body's keys a new user may set: username, email, password and the allowed fields. */
function allowedValues(users: EndUsers, body: Record<string, unknown>, allowedFields: readonly string[] | null): Record<string, unknown> {
  const allowed = new Set(['username', 'email', 'password', ...(allowedFields ?? users.store.writableFields.map((attribute) => attribute.name).filter((name) => !NEVER_REGISTERED.has(name)))]);
  return Object.fromEntries(Object.entries(body).filter(([key]) => allowed.has(key)));
}

export async function registerUser(
  engine: WriteEngine,
  users: EndUsers,
  body: Record<string, unknown>,
  deadline: number,
  confirm?: (user: StoredUser) => Promise<void>,
): Promise<LoginAnswer | { user: Readonly<Record<string, unknown>> }> {
  const settings = users.config.register;
  if (!settings) throw new ApplicationError('Register action is currently disabled');
  const values = allowedValues(users, body, settings.allowedFields);
  const { email, username } = parseRegisterBody(values);
  refuseNul(values);
  const roleId = await users.store.roleIdOfType(settings.defaultRole);
  if (roleId === null) throw new ApplicationError('Impossible to find the default role');
  // Strapi compares both ways round (an email used as a username is taken too), across providers with unique_email on, its default.
  if ((await users.store.countConflicts([email.toLowerCase(), username])) > 0) throw new ApplicationError('Email or Username are already taken');
  const data = { ...values, email: email.toLowerCase(), provider: 'local', confirmed: !users.config.emailConfirmation, role: roleId };
  const user = await insertUser(engine, users.store, data, deadline);
  if (!users.config.emailConfirmation) return users.answerFor(user);
  await confirm?.(user);
  return { user: user.publicFields };
}
