/**
 * A MariaDB server's internal temporary tables under way, beside the servers the tests make of
 * their own. Every JSON_ARRAYAGG of a populated read has one (an Aria file pair
 * in the server's tmpdir, since its values are blobs), and MariaDB 10.11 crashes with signal 11
 * (ha_maria::drop_table from Create_tmp_table::cleanup_on_failure) when it cannot open one it has
 * just created. mariadb-install-db deletes every `#sql…` file of its tmpdir when it starts, so a
 * test server bootstrapped with the default tmpdir (/tmp, the shared server's) took the shared
 * server down in the middle of a test run. Here the busy server is a private one, whose tmpdir
 * stands for /tmp: the servers made beside it must leave its files alone.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { serveApi, type ServedApi } from '../support/api.js';
import { mysqlServerUrl } from '../support/databases.js';
import { createOwnMariadb, ownMariadbUnavailable, type OwnMariadb } from '../support/own-mariadb.js';
import { cliPath, repoRoot } from '../support/server.js';

const LOADERS = 12;
const SERVERS_BESIDE = 3;

/** Creates a server of the tests' own, and removes it, while TMPDIR is `tmpdir` (as /tmp is for every process). */
async function ownServerBootstrappedIn(tmpdir: string): Promise<void> {
  const saved = process.env.TMPDIR;
  process.env.TMPDIR = tmpdir;
  let beside: OwnMariadb;
  try {
    beside = await createOwnMariadb();
  } finally {
    if (saved === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = saved;
  }
  await beside.destroy();
}

const unavailable = mysqlServerUrl() ? ownMariadbUnavailable() : 'no MariaDB (TEST_MYSQL_URL unset)';
(unavailable ? describe.skip : describe)(`MariaDB temporary tables: servers made beside a busy one${unavailable ? ` (skipped: ${unavailable})` : ''}`, function () {
  this.timeout(240_000);
  let busy: OwnMariadb;
  let served: ServedApi;
  before(async () => {
    busy = await createOwnMariadb();
    for (const command of ['sync', 'seed']) {
      await promisify(execFile)(process.execPath, [cliPath, command, '--root', repoRoot, '--database', busy.url], { cwd: repoRoot, timeout: 120_000 });
    }
    served = await serveApi({ root: repoRoot, database: busy.url, timeout: 10_000 });
  });
  after(async () => {
    // The server first: a pool's close waits on connections to a server that crashed.
    await busy?.destroy();
    await served?.close();
  });

  it('leave the internal temporary tables of its populated reads alone: every read answers 200 and the server stays up', async () => {
    const listed = await served.request.get('/api/articles?fields[0]=title&pagination[pageSize]=100');
    const ids = (listed.body as { data: { id: number }[] }).data.map((entry) => entry.id);
    expect(ids).to.have.length.above(0);
    const statuses = new Map<number, number>();
    let loading = true;
    const load = async (loader: number) => {
      for (let n = 0; loading; n++) {
        const { status } = await served.request.get(`/api/articles/${ids[(loader + n) % ids.length]}?populate=*`);
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
        // A server that went down answers nothing but 503s from then on: no need to go on.
        if (status !== 200) loading = false;
      }
    };
    const loaders = Array.from({ length: LOADERS }, (_, loader) => load(loader));
    try {
      for (let i = 0; i < SERVERS_BESIDE && loading; i++) await ownServerBootstrappedIn(busy.tmpdir);
    } finally {
      loading = false;
      await Promise.all(loaders);
    }
    expect([...statuses.keys()], JSON.stringify(Object.fromEntries(statuses))).to.deep.equal([200]);
    expect((await busy.sql('SELECT 1')).trim()).to.equal('1');
  });
});
