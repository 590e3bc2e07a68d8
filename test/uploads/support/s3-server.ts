/**
 * An S3-compatible server on loopback for the `s3` provider's suites: s3rver (the S3 protocol
 * over a temporary folder) behind a small front on a port of its own. The front forwards every
 * request as it is; `down()` closes it (the store refuses connections, as one that is down does),
 * `up()` opens it again on the same port, and `failWhen` answers the requests it matches with an
 * S3 500, so a suite can make the store fail part-way through a request.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import type { S3ProviderOptions } from '../../../plugin/upload/s3-provider.js';

// The SDK warns once per process that its releases from 2027 need Node 22; the suites run on 20.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

interface S3rverObject {
  readonly key: string;
  readonly metadata: Readonly<Record<string, string>>;
  readonly content: Readable | null;
}

interface S3rverInstance {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
  httpServer: Server;
  store: {
    listObjects(bucket: string, options: { prefix?: string }): Promise<{ objects: S3rverObject[] }>;
    getObject(bucket: string, key: string): Promise<S3rverObject | null>;
  };
}

type S3rverClass = new (options: Record<string, unknown>) => S3rverInstance;
const S3rver = createRequire(import.meta.url)('@20minutes/s3rver') as S3rverClass;

/** s3rver's fixed key pair. */
const CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

export interface StoredS3Object {
  readonly key: string;
  readonly contentType: string;
  readonly bytes: Buffer;
}

export interface TestS3Server {
  readonly bucket: string;
  /** `http://127.0.0.1:<front port>`. */
  readonly endpoint: string;
  /** Options of `createS3Provider` for this server (path-style, its credentials); `extra` added. */
  providerOptions(extra?: Partial<S3ProviderOptions>): S3ProviderOptions;
  /** The keys in the bucket, sorted (read from the store's folder: works while the front is down). */
  keys(): Promise<string[]>;
  object(key: string): Promise<StoredS3Object | null>;
  /** The object's size in bytes, without reading it; null when there is none. */
  objectSize(key: string): Promise<number | null>;
  /** Answers the requests `match` selects with a 500 until it is cleared (null). */
  failWhen(match: ((request: IncomingMessage) => boolean) | null): void;
  /** How many requests the front refused with failWhen. */
  readonly failed: number;
  /** Every request the front received, as `METHOD /path?query`, oldest first. */
  readonly requests: readonly string[];
  down(): Promise<void>;
  up(): Promise<void>;
  stop(): Promise<void>;
}

export async function startS3Server(bucket = 'media-bucket'): Promise<TestS3Server> {
  const directory = mkdtempSync(join(tmpdir(), 'content-api-s3-'));
  const s3 = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] });
  const { port: storePort } = await s3.run();
  let failing: ((request: IncomingMessage) => boolean) | null = null;
  let failed = 0;
  const requests: string[] = [];
  const front = createServer((incoming, outgoing) => {
    requests.push(`${incoming.method} ${incoming.url}`);
    if (failing?.(incoming)) {
      failed++;
      incoming.resume();
      outgoing.writeHead(500, { 'Content-Type': 'application/xml' });
      outgoing.end('<?xml version="1.0" encoding="UTF-8"?><Error><Code>InternalError</Code><Message>We encountered an internal error. Please try again.</Message></Error>');
      return;
    }
    const forwarded = httpRequest({ host: '127.0.0.1', port: storePort, method: incoming.method, path: incoming.url, headers: incoming.headers }, (answer) => {
      outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(outgoing);
    });
    forwarded.on('error', () => outgoing.destroy());
    incoming.pipe(forwarded);
  });
  await listen(front, 0);
  const port = (front.address() as AddressInfo).port;
  const endpoint = `http://127.0.0.1:${port}`;
  let open = true;
  const closeFront = async () => {
    if (!open) return;
    open = false;
    const closed = new Promise((resolve) => front.close(resolve));
    front.closeAllConnections();
    await closed;
  };
  return {
    bucket,
    endpoint,
    providerOptions: (extra = {}) => ({ bucket, endpoint, forcePathStyle: true, region: 'us-east-1', credentials: CREDENTIALS, ...extra }),
    keys: async () => (await s3.store.listObjects(bucket, {})).objects.map((object) => object.key).sort(),
    object: async (key) => {
      const found = await s3.store.getObject(bucket, key);
      if (!found) return null;
      const chunks: Buffer[] = [];
      // An empty object has no content stream.
      if (found.content) for await (const chunk of found.content) chunks.push(chunk as Buffer);
      return { key, contentType: found.metadata['content-type'] ?? '', bytes: Buffer.concat(chunks) };
    },
    objectSize: async (key) => {
      const found = await s3.store.getObject(bucket, key);
      found?.content?.destroy();
      return found ? Number(found.metadata['content-length']) : null;
    },
    failWhen: (match) => {
      failing = match;
    },
    get failed() {
      return failed;
    },
    requests,
    down: closeFront,
    up: async () => {
      if (open) return;
      await listen(front, port);
      open = true;
    },
    stop: async () => {
      await closeFront();
      const closed = s3.close();
      s3.httpServer.closeAllConnections();
      await closed;
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

function listen(server: Server, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
}
