/**
 * A PostgreSQL body worker: runs heavy body statements on connections of its own and hands the
 * body to the event loop as bytes with their ETag. pg decodes a value into a string as it reads
 * it; for a 2.8 MB body the reading, that decoding, the encoding back into bytes and the digest
 * held the event loop for tens of milliseconds, beside the light requests it serves. Here they
 * happen on another thread, at the lowest scheduling priority. One statement at a time.
 */
import { parentPort, workerData } from 'node:worker_threads';
import pg from 'pg';
import { weakEtag } from '../format/etag.js';
import { POSTGRES_SESSION } from '../storage/postgres-session.js';
import { BodySlabs, ownBuffer, type SlabBody } from './body-slabs.js';
import { connectionLost, makeRoomToPrepare, type PreparingConnection } from './postgres-connections.js';
import { setThisThreadNice } from './thread-priority.js';

export interface PostgresWorkerSetup {
  /** How to connect to each target, by index: the primary, then the replicas (their pg connection settings). */
  readonly targets: readonly pg.ClientConfig[];
  /** Every connection's statement_timeout (ms): the request's time budget. */
  readonly statementTimeout: number;
  /** This thread's scheduling priority. */
  readonly nice: number;
  /** Which of this worker's body slabs the event loop still reads (body-slabs.ts). */
  readonly lent: SharedArrayBuffer;
}

export interface PostgresWorkerRequest {
  readonly id: number;
  /** The target's index in the setup's targets. */
  readonly target: number;
  /** A body statement wrapped with the response budget (postgres-executor.ts `withinBudget`). */
  readonly sql: string;
  readonly values: readonly unknown[];
  /** The prepared statement's name. */
  readonly name: string;
}

export type PostgresWorkerResponse =
  | {
      readonly id: number;
      readonly ok: true;
      /** The body, transferred; or, for a large one, `lent` in one of the worker's slabs. */
      readonly bytes?: Buffer;
      readonly lent?: SlabBody;
      readonly rows: number;
      readonly size: number;
      readonly etag?: string;
      readonly milliseconds: number;
    }
  | {
      readonly id: number;
      readonly ok: false;
      readonly message: string;
      readonly code: string | null;
      /** The target could not be reached or dropped the connection: another target may answer. */
      readonly lost: boolean;
    };

/** pg's client, with its record of the statements prepared on the connection. */
type Connection = pg.Client & Pick<PreparingConnection, 'connection'>;

const setup = workerData as PostgresWorkerSetup;
setThisThreadNice(setup.nice);
const slabs = new BodySlabs(new Int32Array(setup.lent));
const connections = new Map<number, Promise<Connection>>();

function connectionTo(target: number): Promise<Connection> {
  let connection = connections.get(target);
  if (!connection) {
    connection = connect(target);
    connections.set(target, connection);
    // A failed connection is forgotten: the next statement for this target connects again.
    connection.catch(() => connections.delete(target));
  }
  return connection;
}

async function connect(target: number): Promise<Connection> {
  const client = new pg.Client(setup.targets[target]) as unknown as Connection;
  // A connection that breaks while idle is forgotten, not an uncaught error.
  client.on('error', () => forget(target, client));
  await client.connect();
  try {
    await client.query(`${POSTGRES_SESSION}; SET statement_timeout = ${Math.max(1, Math.floor(setup.statementTimeout))}`);
  } catch (error) {
    await client.end().catch(() => undefined);
    throw error;
  }
  return client;
}

function forget(target: number, client: Connection): void {
  void connections.get(target)?.then((current) => {
    if (current === client) connections.delete(target);
  });
  void client.end().catch(() => undefined);
}

async function run(request: PostgresWorkerRequest): Promise<PostgresWorkerResponse> {
  let client: Connection;
  try {
    client = await connectionTo(request.target);
  } catch (error) {
    return failure(request, error, true);
  }
  const started = performance.now();
  try {
    await makeRoomToPrepare(client, request.name);
    const result = await client.query({ text: request.sql, values: request.values as unknown[], rowMode: 'array', name: request.name });
    const [body, size, rows] = result.rows[0] as [string | null, number, number];
    const milliseconds = performance.now() - started;
    if (body === null) return { id: request.id, ok: true, rows, size, milliseconds };
    const bytes = ownBuffer(Buffer.from(body));
    return { id: request.id, ok: true, bytes, rows, size, etag: weakEtag(bytes), milliseconds };
  } catch (error) {
    const lost = connectionLost(error);
    if (lost) forget(request.target, client);
    return failure(request, error, lost);
  }
}

function failure(request: PostgresWorkerRequest, error: unknown, lost: boolean): PostgresWorkerResponse {
  const { message, code } = error as { message?: unknown; code?: unknown };
  return { id: request.id, ok: false, message: String(message ?? error), code: typeof code === 'string' ? code : null, lost };
}

parentPort!.on('message', (message: PostgresWorkerRequest | 'close') => {
  if (message === 'close') {
    void Promise.all([...connections.values()].map((connection) => connection.then((client) => client.end(), () => undefined))).finally(() => parentPort!.close());
    return;
  }
  void run(message).then((response) => {
    const lent = response.ok && response.bytes ? slabs.lend(response.bytes) : null;
    if (response.ok && lent) parentPort!.postMessage({ ...response, bytes: undefined, lent } satisfies PostgresWorkerResponse);
    else if (response.ok && response.bytes) parentPort!.postMessage(response, [response.bytes.buffer as ArrayBuffer]);
    else parentPort!.postMessage(response);
  });
});
