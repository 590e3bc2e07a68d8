/**
 * The profile of the user of a provider's access token, as Strapi's users-permissions reads it:
 * a username and an email. GitHub: the user (its public email, else its primary email, which must
 * be verified); Google: the token's own information (its email, which must be verified).
 */
import type { ProviderConfig } from './provider-options.js';

export interface ProviderProfile {
  readonly username: string;
  readonly email: string | null;
}

/** A provider that does not answer, or not with a profile: its words, for Strapi's ApplicationError. */
export class ProfileError extends Error {}

const TIMEOUT_MS = 10_000;

async function getJson(url: string, headers: Record<string, string>): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(url, { headers: { accept: 'application/json', ...headers }, signal: AbortSignal.timeout(TIMEOUT_MS), redirect: 'error' });
  } catch {
    throw new ProfileError('The provider could not be reached');
  }
  if (!response.ok) throw new ProfileError(`The provider refused the token (${response.status})`);
  try {
    return await response.json();
  } catch {
    throw new ProfileError('The provider answered without a profile');
  }
}

const textOf = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

async function githubProfile(provider: ProviderConfig, token: string): Promise<ProviderProfile> {
  const headers = { authorization: `Bearer ${token}`, 'user-agent': 'koa-content-api' };
  const user = (await getJson(`${provider.profileUrl}/user`, headers)) as { login?: unknown; email?: unknown } | null;
  const username = textOf(user?.login);
  if (!username) throw new ProfileError('The provider answered without a profile');
  // A public email on a GitHub profile is one GitHub verified.
  const email = textOf(user?.email);
  if (email) return { username, email };
  const emails = await getJson(`${provider.profileUrl}/user/emails`, headers);
  const primary = Array.isArray(emails) ? (emails as { email?: unknown; primary?: unknown; verified?: unknown }[]).find((item) => item?.primary === true && item.verified === true) : undefined;
  return { username, email: textOf(primary?.email) };
}

async function googleProfile(provider: ProviderConfig, token: string): Promise<ProviderProfile> {
  const info = (await getJson(`${provider.profileUrl}?${new URLSearchParams({ access_token: token })}`, {})) as { email?: unknown; email_verified?: unknown } | null;
  const email = textOf(info?.email);
  const verified = info?.email_verified === true || info?.email_verified === 'true';
  if (!email || !verified) return { username: '', email: null };
  return { username: email.split('@')[0], email };
}

export function fetchProfile(provider: ProviderConfig, token: string): Promise<ProviderProfile> {
  return provider.name === 'github' ? githubProfile(provider, token) : googleProfile(provider, token);
}
