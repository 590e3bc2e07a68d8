/**
 * The response budget's refusals, paced per caller (http/refusal-pacing.ts): past a burst, a
 * caller's refusals are held until their turn, while its other requests and every other caller's
 * refusals are answered at once.
 */
import { expect } from 'chai';
import { once } from 'node:events';
import { Agent, get, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { RefusalPacer } from '../../plugin/http/refusal-pacing.js';
import { serveFixture, type ServedApi } from '../support/api.js';

describe('refusal pacing', () => {
  it('holds nothing within the burst, then one interval more per refusal', () => {
    const pacer = new RefusalPacer(100, 5);
    const holds = Array.from({ length: 8 }, () => pacer.hold('a', 1000));
    expect(holds).to.deep.equal([0, 0, 0, 0, 0, 10, 20, 30]);
  });

  it('gives the burst back as time passes, one refusal per interval', () => {
    const pacer = new RefusalPacer(100, 5);
    for (let count = 0; count < 8; count += 1) pacer.hold('a', 1000);
    // Eight refusals at 1000 are due until 1080: at 1050, three intervals ahead, two of the burst are back.
    expect([pacer.hold('a', 1050), pacer.hold('a', 1050), pacer.hold('a', 1050)]).to.deep.equal([0, 0, 10]);
    expect(pacer.hold('a', 2000)).to.equal(0);
  });

  it('paces each caller on its own', () => {
    const pacer = new RefusalPacer(100, 2);
    expect([pacer.hold('a', 0), pacer.hold('a', 0), pacer.hold('a', 0)]).to.deep.equal([0, 0, 10]);
    expect([pacer.hold('b', 0), pacer.hold('b', 0)]).to.deep.equal([0, 0]);
  });

  it('holds a refusal at most a second, and a caller on many connections is not held longer', () => {
    const pacer = new RefusalPacer(100, 2);
    const holds = Array.from({ length: 1000 }, () => pacer.hold('a', 0));
    expect(Math.max(...holds)).to.equal(1000);
    // Once the caller stops, its burst is whole again a burst and a second later.
    expect(pacer.hold('a', 1020)).to.equal(0);
  });

  it('remembers a bounded number of callers, forgetting those whose burst is whole first', () => {
    const pacer = new RefusalPacer(100, 1, 3);
    for (let count = 0; count < 3; count += 1) pacer.hold('busy', 0);
    pacer.hold('idle', 0);
    pacer.hold('other', 0);
    // At 15 the idle callers' bursts are whole again; the busy one is still due at 30.
    pacer.hold('new', 15);
    expect(pacer.size).to.equal(2);
    expect(pacer.hold('busy', 15)).to.equal(15);
  });
});

describe('refusals for cost over HTTP (sqlite)', function () {
  this.timeout(60_000);
  // The small fixture's articles with everything populated are far over a 2 kB budget.
  const REFUSED = '/api/articles?populate=*&pagination[pageSize]=100';
  let served: ServedApi;
  let server: Server;
  let base: string;
  before(async () => {
    served = await serveFixture('sqlite', 'small', { maxResponseBytes: 2_000 });
    server = served.app.listen(0, '127.0.0.1');
    await once(server, 'listening');
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    server.close();
    await served.close();
  });

  it("holds one caller's refusals past its burst, not its other requests nor another caller's refusals", async () => {
    // 50 keep-alive connections: the flood's cost is the server's, not that of opening sockets.
    const agent = new Agent({ keepAlive: true, maxSockets: 50 });
    const started = performance.now();
    const timed = (path: string, { headers = {}, over = agent }: { headers?: Record<string, string>; over?: Agent } = {}) =>
      new Promise<{ status: number; message: string; milliseconds: number }>((resolve, reject) => {
        get(`${base}${path}`, { agent: over, headers }, (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => {
            const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { error?: { message?: string } };
            resolve({ status: response.statusCode ?? 0, message: body.error?.message ?? '', milliseconds: performance.now() - started });
          });
        }).on('error', reject);
      });
    const refusals = Array.from({ length: 500 }, () => timed(REFUSED));
    // Sent on connections of their own once the flood is under way: the same caller's light request, and another caller's refusal.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const own = new Agent();
    const [light, otherCaller] = await Promise.all([
      timed('/api/articles/1?fields[0]=title', { over: own }),
      timed(REFUSED, { over: own, headers: { authorization: 'Bearer demo-editor-token' } }),
    ]);
    const answered = await Promise.all(refusals);
    agent.destroy();
    own.destroy();
    for (const refusal of [...answered, otherCaller]) {
      expect(refusal.status).to.equal(400);
      expect(refusal.message).to.match(/above the limit of 0\.0 MB/);
    }
    expect(light.status).to.equal(200);
    // 400 refusals past a burst of 100, at 500 a second: the last cannot be answered within 800 ms.
    const slowest = Math.max(...answered.map((refusal) => refusal.milliseconds));
    expect(slowest).to.be.greaterThan(750);
    expect(light.milliseconds).to.be.lessThan(slowest - 300);
    expect(otherCaller.milliseconds).to.be.lessThan(slowest - 300);
  });
});
