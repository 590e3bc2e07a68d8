/**
 * Heavy statement slots shared per caller (sql/admission.ts), over HTTP on every engine: one API
 * token floods heavy requests, another token's heavy request arriving behind the flood gets the
 * next heavy slot instead of waiting for the whole flood to finish.
 */
import { expect } from 'chai';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tokenHash } from '../../plugin/access/tokens.js';
import { repoRoot, serveFixture, type ServedApi } from '../support/api.js';
import { testDatabaseKinds } from '../support/databases.js';

/** 25 categories with their articles and everything the articles link to: about 3 MB, a heavy statement. */
const HEAVY = '/api/categories?populate[articles][populate]=*&pagination[withCount]=false';
const FLOOD = 8;

for (const kind of testDatabaseKinds()) {
  describe(`heavy slots shared per caller (${kind.name}, large fixture)`, function () {
    this.timeout(180_000);
    let served: ServedApi;
    let dir: string;
    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'fair-share-'));
      const tokens = ['flood', 'other'].map((name) => `  - { name: ${name}, role: public, hash: "${tokenHash(`${name}-token`, 'fair-share-test-salt')}" }`);
      const permissions = readFileSync(join(repoRoot, 'permissions.yaml'), 'utf8').replace(/^tokens:\n/m, `tokens:\n${tokens.join('\n')}\n`);
      writeFileSync(join(dir, 'permissions.yaml'), permissions);
      // One heavy slot on SQLite (two workers, one kept for light statements), two elsewhere.
      served = await serveFixture(kind.client, 'large', { permissionsFile: join(dir, 'permissions.yaml'), watchPermissions: false, sqliteReadWorkers: 2, maxConcurrentStatements: 2, timeout: 30_000 });
    });
    after(async () => {
      await served?.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it("serves another token's heavy request before the rest of one token's flood", async () => {
      const finished: string[] = [];
      const send = (name: string) =>
        served.request
          .get(HEAVY)
          .set('Authorization', `Bearer ${name}-token`)
          .then((response) => {
            finished.push(`${name} ${response.status}`);
            return response;
          });
      // Its shape has run: it is known to be heavy.
      expect((await send('flood')).status).to.equal(200);
      finished.length = 0;
      const flood = Array.from({ length: FLOOD }, () => send('flood'));
      // The flood holds the heavy slots and waits for more when the other token asks.
      await new Promise((resolve) => setTimeout(resolve, 100));
      // What the flood finished before the other token asked is not the queue's doing: a busy machine
      // may be slower to send the flood than to run it.
      const finishedWhenAsked = finished.length;
      const other = await send('other');
      const answers = await Promise.all(flood);
      expect(other.status).to.equal(200);
      for (const answer of answers) expect([200, 503], answer.text.slice(0, 200)).to.include(answer.status);
      const turn = finished.indexOf('other 200');
      const servedBefore = finished.slice(finishedWhenAsked, turn).filter((entry) => entry === 'flood 200').length;
      const servedAfter = finished.slice(turn + 1).filter((entry) => entry === 'flood 200').length;
      // First come first served, it would have waited for all of them: here only for those running
      // when it came (two heavy slots at most), one started beside it, and one whose statement had
      // ended but whose answer (about 3 MB) was still on its way (seen on MariaDB: 4, in 2 runs of 6).
      const order = `${finished.join(', ')} (${finishedWhenAsked} finished before the other token asked)`;
      expect(servedBefore, order).to.be.at.most(4);
      expect(servedAfter, order).to.be.at.least(1);
    });
  });
}
