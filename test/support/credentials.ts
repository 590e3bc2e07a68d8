/**
 * What the credential suites check on a database URL: the API serves it with the URL's password
 * (and socket), plainly and as its own replica — readiness, reads, a write and the read of its
 * answer, each on connections the URL alone describes.
 */
import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { serveApi, repoRoot, type ServedApi } from './api.js';

/** Serves `url` (without and with itself as a replica) and runs `check` on each, closing it after. */
export async function onUrlAndItsReplica(url: string, check: (served: ServedApi, name: string) => Promise<void>): Promise<void> {
  for (const [prefix, replicas] of [['tcp', []], ['replica', [url]]] as const) {
    const served = await serveApi({ root: repoRoot, database: url, replicas: [...replicas], sync: false, connectTimeout: 2_000 });
    try {
      await check(served, `${prefix}-${randomBytes(3).toString('hex')}`);
    } finally {
      await served.close();
    }
  }
}

const EDITOR = { Authorization: 'Bearer demo-editor-token' };

/** A write as the example app's editor, and a read of what it wrote: both on the URL's connections. */
export async function writesAndReadsBack(served: ServedApi, name: string): Promise<void> {
  const created = await served.request.post('/api/categories').set(EDITOR).send({ data: { name } });
  expect(created.status, created.text).to.equal(200);
  const read = await served.request.get(`/api/categories/${created.body.data.id}`);
  expect(read.status, read.text).to.equal(200);
  expect(read.body.data.attributes.name).to.equal(name);
}
