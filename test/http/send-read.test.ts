/**
 * A read's bytes lent by a SQLite read worker are given back once the response has closed, and
 * not before: sent in full (in paced slices), answered 304, or cut short by the client.
 */
import { expect } from 'chai';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { weakEtag } from '../../plugin/format/etag.js';
import { conditionalGet } from '../../plugin/http/conditional-get.js';
import { pacedBody } from '../../plugin/http/paced-body.js';
import { sendRead } from '../../plugin/http/send-read.js';
import { LARGE_BODY_BYTES } from '../../plugin/response-budget.js';

describe('sendRead: lent bytes given back when the response closes', () => {
  const bytes = Buffer.alloc(8 * LARGE_BODY_BYTES, 'x');
  /** Per response: how many times its bytes were given back, and whether every time it had finished or was destroyed. */
  let releases: number[];
  let releasedEarly: boolean;
  let server: http.Server;
  let baseUrl: string;

  before(async () => {
    const app = new Koa();
    // A client going away mid-body is expected here; Koa would print it.
    app.silent = true;
    app.use(pacedBody);
    app.use(conditionalGet);
    app.use(async (ctx) => {
      const sent = releases.length;
      releases.push(0);
      const release = () => {
        releases[sent] = releases[sent]! + 1;
        if (!ctx.res.writableFinished && !ctx.res.destroyed) releasedEarly = true;
      };
      sendRead(ctx, { body: bytes, etag: weakEtag(bytes), release, stats: { statements: 1, milliseconds: 0 } });
    });
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  beforeEach(() => {
    releases = [];
    releasedEarly = false;
  });
  afterEach(() => expect(releasedEarly, 'given back before the response finished').to.equal(false));
  after(() => new Promise((resolve) => server.close(resolve)));

  /** Resolves when `check()` holds, or after two seconds with whatever it says then. */
  const eventually = async (check: () => boolean) => {
    for (let waited = 0; waited < 2000 && !check(); waited += 10) await new Promise((resolve) => setTimeout(resolve, 10));
  };

  it('gives them back once, after the last slice was handed to the socket, on a connection kept alive', async () => {
    const agent = new http.Agent({ keepAlive: true });
    for (let round = 0; round < 3; round += 1) {
      const length = await new Promise<number>((resolve, reject) => {
        http.get(baseUrl, { agent }, (response) => {
          let received = 0;
          response.on('data', (chunk: Buffer) => (received += chunk.length));
          response.on('end', () => resolve(received));
        }).on('error', reject);
      });
      expect(length).to.equal(bytes.length);
    }
    agent.destroy();
    await eventually(() => releases.every((count) => count === 1));
    expect(releases).to.deep.equal([1, 1, 1]);
  });

  it('gives them back after a 304', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      http.get(baseUrl, { headers: { 'If-None-Match': weakEtag(bytes) } }, (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode!));
      }).on('error', reject);
    });
    expect(status).to.equal(304);
    await eventually(() => releases[0] === 1);
    expect(releases).to.deep.equal([1]);
  });

  it('gives them back when the client goes away in the middle of the body', async () => {
    await new Promise<void>((resolve, reject) => {
      const request = http.get(baseUrl, (response) => {
        response.once('data', () => {
          request.destroy();
          resolve();
        });
      });
      request.on('error', (error) => ((error as { code?: string }).code === 'ECONNRESET' ? undefined : reject(error)));
    });
    await eventually(() => releases[0] === 1);
    expect(releases).to.deep.equal([1]);
  });
});
