/**
 * What a database URL carries besides host and database: the password (percent-encoded), a Unix
 * socket, TLS; and how messages name the database without its password.
 */
import { expect } from 'chai';
import { describeDatabase } from '../../plugin/storage/check-database.js';
import { connectionSettingsOf, openDatabase, parseDatabaseUrl } from '../../plugin/storage/database.js';
import { mysqlConnectionConfig } from '../../plugin/storage/mysql-session.js';

/** The description of the database at `url`; knex connects only when asked, so nothing is reached. */
async function described(url: string): Promise<string> {
  const knex = openDatabase(url);
  try {
    return describeDatabase(knex);
  } finally {
    await knex.destroy();
  }
}

describe('database URLs', function () {
  it('reads a MariaDB socket from socketPath, in place of host and port', function () {
    const config = mysqlConnectionConfig('mysql://app:s%3Acret@localhost/content?socketPath=%2Frun%2Fmysqld%2Fmysqld.sock', 2000);
    expect(config).to.include({ socketPath: '/run/mysqld/mysqld.sock', user: 'app', password: 's:cret', database: 'content' });
    expect(config).not.to.have.property('host');
  });

  it('reads MariaDB TLS from ssl and sslca, and refuses a parameter it does not know', function () {
    expect(mysqlConnectionConfig('mysql://app@db/content?ssl=true', 2000)).to.deep.include({ ssl: {} });
    expect(mysqlConnectionConfig('mysql://app@db/content?ssl=%7B%22rejectUnauthorized%22%3Afalse%7D', 2000)).to.deep.include({ ssl: { rejectUnauthorized: false } });
    expect(mysqlConnectionConfig('mysql://app@db/content?ssl=false', 2000)).not.to.have.property('ssl');
    expect(() => mysqlConnectionConfig('mysql://app@db/content?ssl=yes', 2000)).to.throw(/ssl is true, false or a JSON object/);
    expect(() => mysqlConnectionConfig('mysql://app@db/content?sslca=/no/such/ca.pem', 2000)).to.throw(/cannot read the sslca file \/no\/such\/ca\.pem/);
    expect(() => mysqlConnectionConfig('mysql://app:pw@db/content?socket=/tmp/s', 2000)).to.throw(/unknown parameter "socket" \(a mysql:\/\/ URL takes socketPath, ssl, sslca\)/);
  });

  it("keeps knex's hidden password in the settings handed to connections beside knex's pool", async function () {
    const knex = openDatabase('mysql://app:secret@127.0.0.1:9/content');
    try {
      expect({ ...(knex.client.config.connection as object) }, 'knex hides it from a spread').not.to.have.property('password');
      expect(connectionSettingsOf(knex)).to.include({ user: 'app', password: 'secret', host: '127.0.0.1', port: 9 });
    } finally {
      await knex.destroy();
    }
  });

  it('names the server, or its socket, in messages, never the password', async function () {
    expect(await described('mysql://app:secret@db.example:3307/content')).to.equal('MariaDB at db.example:3307/content');
    expect(await described('mysql://app:secret@localhost/content?socketPath=/run/mysqld/mysqld.sock')).to.equal('MariaDB at /run/mysqld/mysqld.sock, database content');
    expect(await described('postgres://app:secret@db.example/content')).to.equal('PostgreSQL at db.example:5432/content');
    expect(await described('postgres://app:secret@%2Fvar%2Frun%2Fpostgresql/content')).to.equal('PostgreSQL at /var/run/postgresql/.s.PGSQL.5432, database content');
    expect(await described('postgres:///content?host=/var/run/postgresql&port=5433')).to.equal('PostgreSQL at /var/run/postgresql/.s.PGSQL.5433, database content');
    expect(() => parseDatabaseUrl('postgress://app:secret@db/content')).to.throw(/"postgress:\/\/app:\*\*\*@db\/content"/);
  });
});
