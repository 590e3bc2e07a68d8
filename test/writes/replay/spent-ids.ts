/**
 * Ids the reference used up on a request that left no entry. The recording's later ids count
 * them, so the replay spends the same ids right after the case: it creates a throwaway entry of
 * that type through the API and deletes it (both engines' id sequences then move past it, as
 * SQLite's AUTOINCREMENT and PostgreSQL's sequences never hand an id out twice).
 */
import type supertest from 'supertest';
import { show } from './compare.js';
import { sendRequest } from './send.js';

export interface SpentId {
  /** The case after which the id is spent. */
  readonly seq: number;
  readonly reason: string;
  /** The collection route of the type, and a valid `data` to create a throwaway entry. */
  readonly path: string;
  readonly data: Readonly<Record<string, unknown>>;
}

export const SPENT_IDS: readonly SpentId[] = [
  {
    seq: 29,
    reason: 'Strapi gave article 68 to this refused create (the relation order fails after the insert) and no entry keeps it',
    path: '/api/articles',
    data: { title: 'Spent by the reference' },
  },
];

/** Creates and deletes one entry; the problems when either fails. */
export async function spendId(agent: supertest.Agent, spent: SpentId): Promise<string[]> {
  const created = await sendRequest(agent, { method: 'POST', path: spent.path, body: { data: spent.data } });
  const id = (created.body as { data?: { id?: unknown } } | undefined)?.data?.id;
  if (created.status !== 200 || typeof id !== 'number') return [`spending an id (${spent.reason}): POST ${spent.path} answered ${created.status} ${show(created.body ?? created.text)}`];
  const deleted = await sendRequest(agent, { method: 'DELETE', path: `${spent.path}/${id}` });
  return deleted.status === 200 ? [] : [`spending an id: DELETE ${spent.path}/${id} answered ${deleted.status} ${show(deleted.body ?? deleted.text)}`];
}
