/**
 * The request log, on both engines: one pino line per request the plugin answers, with a request
 * id (the caller's when well-formed, echoed back), method, path, query parameter names, status,
 * duration and statements; no query value ever, checked with canaries in filters, including on
 * private and password fields and in answers that fail.
 */
import { Writable } from 'node:stream';
import { expect } from 'chai';
import { pino } from 'pino';
import { queryParameterNames } from '../../plugin/http/request-log.js';
import { serveFixture, type ServedApi } from '../support/api.js';
import { testDatabaseKinds } from '../support/databases.js';

const CANARY = 'CANARY-7f3a9c';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A real pino logger writing into memory, its lines parsed. */
function memoryLogger() {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  return { logger: pino({ base: null }, destination), lines, records: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>) };
}

for (const kind of testDatabaseKinds()) {
  describe(`request log (${kind.name})`, () => {
    let served: ServedApi;
    let log: ReturnType<typeof memoryLogger>;
    before(async () => {
      log = memoryLogger();
      served = await serveFixture(kind.client, 'small', { logger: log.logger });
    });
    after(() => served.close());
    beforeEach(() => log.lines.splice(0));

    it('writes one line per request with id, method, path, parameter names, status, duration and statements', async () => {
      const response = await served.request.get('/api/articles?fields[0]=title&pagination[pageSize]=2');
      expect(response.status).to.equal(200);
      const records = log.records();
      expect(records).to.have.length(1);
      const [record] = records;
      expect(record).to.include({ msg: 'request', method: 'GET', path: '/api/articles', status: 200, statements: 1, level: 30 });
      expect(record!.query).to.deep.equal(['fields[0]', 'pagination[pageSize]']);
      expect(record!.reqId).to.match(UUID);
      expect(response.headers['x-request-id']).to.equal(record!.reqId);
      expect(record!.ms).to.be.a('number').and.to.be.at.least(0);
    });

    it("keeps a well-formed X-Request-Id, and replaces one that is not", async () => {
      const kept = await served.request.get('/api/articles/1').set('X-Request-Id', 'edge-42.a:b');
      expect(kept.headers['x-request-id']).to.equal('edge-42.a:b');
      const replaced = await served.request.get('/api/articles/1').set('X-Request-Id', `bad id ${'x'.repeat(300)}`);
      expect(replaced.headers['x-request-id']).to.match(UUID);
      expect(log.records().map((record) => record.reqId)).to.deep.equal(['edge-42.a:b', replaced.headers['x-request-id']]);
      expect(log.lines.join('\n')).to.not.include('bad id');
    });

    it('never writes a query value, whatever the answer', async () => {
      const requests = [
        `/api/articles?filters[title][$eq]=${CANARY}`,
        `/api/users?filters[password][$eq]=${CANARY}`,
        `/api/users?filters[email][$containsi]=${CANARY}&populate[role][filters][name][$eq]=${CANARY}`,
        `/api/articles?_q=${CANARY}`,
        `/api/articles?filters[title][$in][0]=${encodeURIComponent(CANARY)}&filters[views][$gt]=${CANARY}`,
        '/api/articles/1?onlyaname',
        `/api/articles?sort=${CANARY}`,
      ];
      const statuses = [];
      for (const path of requests) statuses.push((await served.request.get(path)).status);
      expect(statuses).to.include.members([200, 400]);
      expect(log.lines).to.have.length(requests.length);
      const written = log.lines.join('\n');
      expect(written).to.not.include(CANARY.slice(7));
      expect(written).to.not.include(encodeURIComponent(CANARY).slice(7));
      expect(log.records()[1]!.query).to.deep.equal(['filters[password][$eq]']);
      // A bare name is the caller's own parameter name, not a value: it is written as sent.
      expect(log.records()[5]!.query).to.deep.equal(['onlyaname']);
    });

    it('logs errors with their status, and nothing for paths outside the API', async () => {
      expect((await served.request.get('/api/articles?fields[0]=nope')).status).to.equal(400);
      expect((await served.request.patch('/api/articles')).status).to.equal(405);
      expect((await served.request.get('/_ready')).status).to.equal(200);
      expect((await served.request.get('/elsewhere')).status).to.equal(404);
      expect(log.records().map((record) => [record.path, record.status, record.statements])).to.deep.equal([
        ['/api/articles', 400, 0],
        ['/api/articles', 405, 0],
        ['/_ready', 200, 0],
      ]);
    });
  });
}

describe('query parameter names', () => {
  it('are decoded, capped, and never carry the value', () => {
    expect(queryParameterNames('')).to.deep.equal([]);
    expect(queryParameterNames('a=1&b%5B0%5D=2&&c&=v')).to.deep.equal(['a', 'b[0]', 'c']);
    expect(queryParameterNames('%E0%A4%A=1')).to.deep.equal(['%E0%A4%A']);
    expect(queryParameterNames(Array.from({ length: 80 }, (_, i) => `p${i}=x`).join('&'))).to.have.length(50);
    expect(queryParameterNames(`${'n'.repeat(500)}=1`)[0]).to.have.length(200);
  });
});
