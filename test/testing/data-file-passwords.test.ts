/**
 * Passwords in a data file are stored as the write API stores them, a bcrypt hash, so a user of the
 * file logs in with the password written there: through createTestApi and `content-api seed --data`.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import bcrypt from 'bcryptjs';
import { expect } from 'chai';
import { openDatabase } from '../../plugin/storage/database.js';
import { createTestApi, testDatabases } from '../../plugin/testing/index.js';
import { repoRoot } from '../support/api.js';
import { runCli } from '../support/run-node.js';

const PASSWORD = 'Password-4!';
/** A hash copied from a database: kept as it is, and its password logs in. */
const HASHED = bcrypt.hashSync('Copied-5!', 4);

const DATA = `user:
  ana: { username: ana, email: ana@example.com, password: ${PASSWORD}, confirmed: true, provider: local }
  bea: { username: bea, email: bea@example.com, password: '${HASHED}', confirmed: true, provider: local }
`;

describe('testing kit data file: passwords', function () {
  this.timeout(30_000);

  for (const database of testDatabases()) {
    describe(database, () => {
      it('stores a bcrypt hash, and the user logs in with the password of the file', async () => {
        const kit = await createTestApi({ root: repoRoot, database, data: { text: DATA }, users: { jwtSecret: 'test-secret' } });
        try {
          const [row] = (await kit.knex('up_users').where({ username: 'ana' }).select('password')) as { password: string }[];
          expect(row.password).to.not.equal(PASSWORD);
          expect(await bcrypt.compare(PASSWORD, row.password), row.password).to.equal(true);
          const login = await kit.request.post('/api/auth/local').send({ identifier: 'ana@example.com', password: PASSWORD });
          expect(login.status, JSON.stringify(login.body)).to.equal(200);
          expect(login.body.user.username).to.equal('ana');
          const copied = await kit.request.post('/api/auth/local').send({ identifier: 'bea', password: 'Copied-5!' });
          expect(copied.status, JSON.stringify(copied.body)).to.equal(200);
        } finally {
          await kit.close();
        }
      });
    });
  }

  it('content-api seed --data stores the hash too', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'content-api-seed-passwords-'));
    try {
      const file = join(folder, 'users.yaml');
      writeFileSync(file, DATA);
      const url = `sqlite:${join(folder, 'dev.db')}`;
      const result = await runCli(['seed', '--root', repoRoot, '--database', url, '--data', file]);
      expect(result.code, result.stderr).to.equal(0);
      const knex = openDatabase(url, { poolSize: 1 });
      try {
        const [row] = (await knex('up_users').where({ username: 'ana' }).select('password')) as { password: string }[];
        expect(await bcrypt.compare(PASSWORD, row.password), row.password).to.equal(true);
      } finally {
        await knex.destroy();
      }
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
