/**
 * Compiled statements with positional placeholders (sql/positional.ts): each numbered placeholder
 * of every engine becomes `?` with its value at that place, a repeated one bound twice, and a `?`
 * of the text itself escaped for knex.raw, and MariaDB's LIKE escape written for knex's sessions.
 */
import { expect } from 'chai';
import { mysqlDialect } from '../../plugin/sql/dialect/mysql.js';
import { postgresDialect } from '../../plugin/sql/dialect/postgres.js';
import { positionalStatement } from '../../plugin/sql/positional.js';

describe('positional statements', () => {
  it('binds PostgreSQL, SQLite and MariaDB placeholders in the order they appear', () => {
    expect(positionalStatement('SELECT $2, $1 WHERE a = $2', ['one', 'two'])).to.deep.equal({ sql: 'SELECT ?, ? WHERE a = ?', values: ['two', 'one', 'two'] });
    expect(positionalStatement('SELECT @p2 || @p1', ['one', 'two'])).to.deep.equal({ sql: 'SELECT ? || ?', values: ['two', 'one'] });
    expect(positionalStatement('SELECT ?/*p2*/, ?/*p1*/', ['one', 'two'])).to.deep.equal({ sql: 'SELECT ?, ?', values: ['two', 'one'] });
  });

  it("escapes the text's own question marks for knex.raw only", () => {
    expect(positionalStatement("SELECT data ? 'key' FROM t WHERE id = $1", [7], { forKnex: postgresDialect })).to.deep.equal({ sql: "SELECT data \\? 'key' FROM t WHERE id = ?", values: [7] });
    expect(positionalStatement("SELECT data ? 'key' FROM t WHERE id = $1", [7]).sql).to.equal("SELECT data ? 'key' FROM t WHERE id = ?");
  });

  it("writes the LIKE escape for MariaDB's knex sessions, which keep backslash escapes", () => {
    const sql = "SELECT 1 FROM t WHERE LOWER(a) LIKE LOWER(?/*p1*/) ESCAPE '\\'";
    expect(positionalStatement(sql, ['%x%'], { forKnex: mysqlDialect }).sql).to.equal("SELECT 1 FROM t WHERE LOWER(a) LIKE LOWER(?) ESCAPE '\\\\'");
    expect(positionalStatement(sql, ['%x%']).sql).to.equal("SELECT 1 FROM t WHERE LOWER(a) LIKE LOWER(?) ESCAPE '\\'");
  });
});
