/**
 * Which servers of the mysql2 client are served (storage/check-database.ts): MariaDB 10.5 and
 * later; MySQL, whose JSON_ARRAYAGG cannot order, and older MariaDB are refused at start with
 * the reason.
 */
import { expect } from 'chai';
import { mysqlServerProblem } from '../../plugin/storage/check-database.js';

describe('the MariaDB servers served', () => {
  it('serves MariaDB 10.5 and later', () => {
    for (const version of ['10.11.19-MariaDB-0+deb12u1', '10.5.0-MariaDB', '11.4.2-MariaDB-log', '10.6.12-MariaDB-1:10.6.12+maria~ubu2004']) {
      expect(mysqlServerProblem(version), version).to.equal(null);
    }
  });

  it('refuses MySQL with the reason, and MariaDB older than 10.5', () => {
    expect(mysqlServerProblem('8.0.36')).to.equal('the server is MySQL 8.0.36, which is not supported yet (its JSON_ARRAYAGG cannot order); MariaDB 10.5 or later is');
    expect(mysqlServerProblem('8.4.0-log')).to.match(/^the server is MySQL 8\.4\.0,/);
    expect(mysqlServerProblem('10.4.32-MariaDB')).to.equal('MariaDB 10.4 is too old: 10.5 or later is needed (JSON_ARRAYAGG with ORDER BY)');
    expect(mysqlServerProblem('5.5.68-MariaDB')).to.match(/^MariaDB 5\.5 is too old/);
  });
});
