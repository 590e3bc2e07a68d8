/**
 * The demo users of the users-permissions plugin and their roles: Strapi's two default roles
 * (Authenticated, Public) plus an Editor role, and a handful of writers. Passwords are stored as
 * bcrypt-shaped strings that match no password: the API never returns them, and nobody logs in.
 */
import { timestamps } from './dates.js';
import type { SeededRandom } from './random.js';
import type { SeedWriter } from './writer.js';

export const ROLE_UID = 'plugin::users-permissions.role';
export const USER_UID = 'plugin::users-permissions.user';

/** The ids of the demo users, in creation order, with their e-mail addresses. */
export interface DemoUsers {
  readonly ids: readonly number[];
  readonly emails: ReadonlyMap<number, string>;
}

const ROLES: readonly [name: string, type: string, description: string][] = [
  ['Authenticated', 'authenticated', 'Default role given to authenticated user.'],
  ['Public', 'public', 'Default role given to unauthenticated user.'],
  ['Editor', 'editor', 'Writes, reviews and publishes articles.'],
];

/** [username, role type, confirmed, blocked] */
const USERS: readonly [string, string, boolean, boolean][] = [
  ['amelie.laurent', 'editor', true, false],
  ['joao.silva', 'authenticated', true, false],
  ['hana.sato', 'authenticated', true, false],
  ['lucas.moreau', 'editor', true, false],
  ['greta.lindqvist', 'authenticated', true, false],
  ['omar.haddad', 'authenticated', false, false],
  ['sofia.rossi', 'authenticated', true, true],
  ['ben.okafor', 'authenticated', true, false],
];

const BCRYPT_ALPHABET = './ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A string shaped like a bcrypt hash (`$2a$10$` and 53 characters); it verifies no password. */
export function placeholderHash(random: SeededRandom): string {
  let text = '$2a$10$';
  for (let i = 0; i < 53; i += 1) text += random.pick([...BCRYPT_ALPHABET]);
  return text;
}

/** Creates the roles and the users, each user linked to its role. */
export async function seedUsers(writer: SeedWriter, random: SeededRandom): Promise<DemoUsers> {
  const roles = new Map<string, number>();
  for (const [index, [name, type, description]] of ROLES.entries()) {
    const role = await writer.create(ROLE_UID, { name, type, description, ...timestamps(24 + index * 0.01) });
    roles.set(type, role.id);
  }
  const ids: number[] = [];
  const emails = new Map<number, string>();
  for (const [index, [username, roleType, confirmed, blocked]] of USERS.entries()) {
    const email = `${username}@example.com`;
    const user = await writer.create(USER_UID, {
      username,
      email,
      provider: 'local',
      password: placeholderHash(random),
      reset_password_token: null,
      confirmation_token: confirmed ? null : random.hex(40),
      confirmed,
      blocked,
      ...timestamps(48 + index * 5, index % 3 === 0 ? 30 : 0),
    });
    await writer.link(user, 'role', roles.get(roleType) as number);
    ids.push(user.id);
    emails.set(user.id, email);
  }
  return { ids, emails };
}
