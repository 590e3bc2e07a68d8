/**
 * MariaDB's positional parameters: the compiler numbers parameters as it creates them but writes
 * them in another order (the body's head after its entries), and may write one twice; mysql2
 * binds `?` in the order they appear.
 */
import { expect } from 'chai';
import { mysqlDialect } from '../../plugin/sql/dialect/mysql.js';
import { positionalStatement } from '../../plugin/sql/positional.js';
import { mysqlConnectionConfig } from '../../plugin/storage/mysql-session.js';

describe('MariaDB statements', function () {
  it('binds each placeholder in the order it appears, a repeated one twice', function () {
    const [p1, p2, p3] = [1, 2, 3].map((index) => mysqlDialect.placeholder(index));
    const statement = positionalStatement(`SELECT ${p3} || x FROM t WHERE a = ${p1} AND b IN (${p2}, ${p3})`, ['a', 'b', 'head']);
    expect(statement).to.deep.equal({ sql: 'SELECT ? || x FROM t WHERE a = ? AND b IN (?, ?)', values: ['head', 'a', 'b', 'head'] });
  });

  it('reads mysql:// and mariadb:// URLs, with an encoded password', function () {
    const config = mysqlConnectionConfig('mariadb://app:p%40ss@db.example:3307/content', 2000);
    expect(config).to.include({ host: 'db.example', port: 3307, user: 'app', password: 'p@ss', database: 'content', charset: 'utf8mb4', timezone: 'Z' });
    expect(mysqlConnectionConfig('mysql://root@127.0.0.1/test', 2000)).to.include({ port: 3306, user: 'root', password: '', database: 'test' });
  });
});
