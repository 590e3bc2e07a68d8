/**
 * Garbage in the query string, on both engines: broken brackets, huge indexes, prototype keys,
 * SQL and LIKE metacharacters, NUL, percent-escapes that are not UTF-8 and 1 MB values. Every
 * answer is a 200, 400, 403 or 404, errors in the envelope, each within a second, and
 * Object.prototype is left as it was.
 */
import { createServer, type Server } from 'node:http';
import { expect } from 'chai';
import supertest from 'supertest';
import { garbageQueries } from '../support/garbage-queries.js';
import { serveFixture, type ServedApi } from '../support/api.js';
import { testDatabaseKinds } from '../support/databases.js';
import { quickly } from '../support/quick-request.js';

const REQUESTS = 2000;

/** Node's default limit on the request line is 16 KB; the host's server decides it, this one lets 1 MB values reach the API. */
const MAX_HEADER_BYTES = 4 * 1024 * 1024;

/** Percent-encodes what may not travel raw in a request line (outside printable ASCII, `#`, spaces), lone surrogates as their would-be UTF-8. */
function onTheWire(path: string): string {
  let wire = '';
  for (const char of path) {
    const code = char.codePointAt(0)!;
    if (code >= 0x21 && code <= 0x7e && char !== '#') wire += char;
    else if (code >= 0xd800 && code <= 0xdfff) wire += '%ED%A0%80';
    else wire += encodeURIComponent(char);
  }
  return wire;
}

function prototypeSnapshot(): string {
  return JSON.stringify([Object.getOwnPropertyNames(Object.prototype).sort(), Object.getOwnPropertyNames(Array.prototype).sort()]);
}

for (const kind of testDatabaseKinds()) {
  describe(`hostile query strings (${kind.name})`, function () {
    let served: ServedApi;
    let server: Server;
    before(async function () {
      this.timeout(120_000);
      served = await serveFixture(kind.client, 'small', { resolveRole: (ctx) => ctx.get('x-test-role') || null });
      server = createServer({ maxHeaderSize: MAX_HEADER_BYTES }, served.app.callback());
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    });
    after(async () => {
      await new Promise((resolve) => server?.close(resolve));
      await served?.close();
    });

    it(`answers ${REQUESTS} of them in the envelope, each within a second, Object.prototype untouched`, async function () {
      this.timeout(300_000);
      const prototypes = prototypeSnapshot();
      const next = garbageQueries(served.api.registry, 20261124);
      const request = supertest(server);
      const statuses = new Map<number, number>();
      for (let index = 0; index < REQUESTS; index += 1) {
        const path = onTheWire(next());
        const response = await quickly(path, () => request.get(path).set('x-test-role', index % 3 === 0 ? 'editor' : ''));
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        const shown = `${response.status} for ${path.slice(0, 300)}: ${response.text.slice(0, 200)}`;
        expect([200, 400, 403, 404], shown).to.include(response.status);
        expect(response.type, shown).to.equal('application/json');
        if (response.status !== 200) {
          expect(response.body, shown).to.have.nested.property('error.status', response.status);
          // No stack frame, no SQL, no driver's words.
          expect(response.text, shown).not.to.match(/\bat \S+\.(js|ts):\d+|\bSELECT\b|\bsqlite_|\bpg_|SQLITE_/);
        }
      }
      expect(prototypeSnapshot()).to.equal(prototypes);
      expect(({} as Record<string, unknown>).polluted).to.equal(undefined);
      // Most are refused, but some get through to the database.
      expect(statuses.get(400) ?? 0).to.be.greaterThan(REQUESTS / 3);
      expect(statuses.get(200) ?? 0).to.be.greaterThan(REQUESTS / 20);
    });
  });
}
