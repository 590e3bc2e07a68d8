/**
 * The conformance harness itself: the known-failures format and the server helper (against a
 * small stand-in HTTP server, so it needs no database).
 */
import assert from 'node:assert/strict';
import { announcedBaseUrl, startServer } from '../support/server.js';
import { parseKnownFailures } from './known-failures.js';

/** Listens on the port given as its argument (0: any) and announces its address like the CLI. */
const STAND_IN = `
  const http = require('node:http');
  const server = http.createServer((req, res) => res.end('ok'));
  server.listen(Number(process.argv[1]), '127.0.0.1', () => console.log('listening on http://127.0.0.1:' + server.address().port + '/api'));
`;

describe('conformance harness', function () {
  describe('known-failures.txt format', function () {
    it('reads entries per database kind and ignores comments', function () {
      const list = parseKnownFailures('# header\n\nsqlite P001-a # wrong order\nall P002-b #  500 on both\n');
      assert.deepEqual(list.problems, []);
      assert.equal(list.lookup('sqlite', 'P001-a')?.reason, 'wrong order');
      assert.equal(list.lookup('postgres', 'P001-a'), undefined);
      assert.equal(list.lookup('postgres', 'P002-b')?.reason, '500 on both');
    });

    it('reports lines without a kind, an id or a reason', function () {
      const list = parseKnownFailures('sqlite P001-a\nmariadb P002-b # why\nP003-c # why\nsqlite P004 # a\nsqlite P004 # b\n', 'kf');
      assert.equal(list.problems.length, 4);
      assert.match(list.problems[0]!, /^kf:1: expected/);
      assert.match(list.problems[1]!, /^kf:2: unknown database kind "mariadb"/);
      assert.match(list.problems[3]!, /^kf:5: "sqlite P004" is listed twice/);
    });
  });

  describe('server helper', function () {
    this.timeout(20_000);

    it('finds an announced address', function () {
      assert.equal(announcedBaseUrl('content-api listening on http://127.0.0.1:4567/api\n'), 'http://127.0.0.1:4567');
      assert.equal(announcedBaseUrl('starting…'), null);
    });

    for (const port of ['0', '{port}']) {
      it(`starts a server on port ${port}, waits until it answers and stops it`, async function () {
        const server = await startServer({ database: 'unused', command: [process.execPath, '-e', STAND_IN, port] });
        assert.match(server.baseUrl, /^http:\/\/127\.0\.0\.1:\d+$/);
        const response = await fetch(`${server.baseUrl}/`);
        assert.equal(await response.text(), 'ok');
        await server.stop();
        const after = await fetch(`${server.baseUrl}/`).then(() => 'answered', () => 'closed');
        assert.equal(after, 'closed');
      });
    }

    it('rejects with the output of a server that exits', async function () {
      const failing = [process.execPath, '-e', 'console.error("no such database"); process.exit(3)'];
      const error = await startServer({ database: 'unused', command: failing }).then(() => null, (reason: Error) => reason);
      assert.match(error?.message ?? '', /exited with 3 before answering/);
      assert.match(error?.message ?? '', /no such database/);
    });

    it('gives up on a server that never answers', async function () {
      const silent = [process.execPath, '-e', 'setInterval(() => {}, 1000)'];
      const started = Date.now();
      const error = await startServer({ database: 'unused', command: silent, startTimeoutMs: 1_000 }).then(() => null, (reason: Error) => reason);
      assert.match(error?.message ?? '', /did not answer within 1000 ms/);
      assert.ok(Date.now() - started < 8_000);
    });
  });
});
