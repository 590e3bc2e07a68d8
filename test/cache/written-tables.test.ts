/**
 * What a statement does to the data, from its text (cache/written-tables.ts): the tables knex's
 * writes name on each engine, host SQL, and anything it cannot read as a write to every table.
 */
import { expect } from 'chai';
import knexFactory from 'knex';
import { statementEffect } from '../../plugin/cache/written-tables.js';

const tables = (sql: string) => {
  const effect = statementEffect(sql);
  return effect.kind === 'write' ? effect.tables : effect.kind;
};

describe('the tables a statement writes (cache/written-tables.ts)', () => {
  for (const client of ['pg', 'mysql2', 'better-sqlite3']) {
    it(`reads the writes knex builds (${client})`, () => {
      const knex = knexFactory({ client, useNullAsDefault: true });
      expect(tables(knex('articles').insert({ title: 'a' }).toString())).to.deep.equal(['articles']);
      expect(tables(knex('articles').where({ id: 1 }).update({ title: 'b' }).toString())).to.deep.equal(['articles']);
      expect(tables(knex('articles_category_links').where({ article_id: 1 }).delete().toString())).to.deep.equal(['articles_category_links']);
      expect(tables(knex('files').insert({ name: 'x' }).onConflict('id').merge().toString())).to.deep.equal(['files']);
      expect(tables(knex.withSchema('public').table('articles').update({ title: 'c' }).toString())).to.deep.equal(['articles']);
      expect(tables(knex('articles').select('id').where({ id: 1 }).forUpdate().toString())).to.equal('none');
      expect(tables(knex('articles').truncate().toString().split(';')[0]!)).to.deep.equal(['articles']);
    });
  }

  it('reads transactions, reads and session statements', () => {
    for (const sql of ['BEGIN;', 'begin transaction', 'START TRANSACTION']) expect(tables(sql), sql).to.equal('begin');
    for (const sql of ['COMMIT;', 'ROLLBACK', 'end transaction']) expect(tables(sql), sql).to.equal('end');
    for (const sql of ['ROLLBACK TO SAVEPOINT trx2', 'SAVEPOINT trx2;', 'RELEASE SAVEPOINT trx2;', 'select 1', 'PRAGMA busy_timeout = 10', 'SET LOCAL statement_timeout = 5', "DO RELEASE_ALL_LOCKS()", '  -- a comment\n select * from "articles"', 'with x as (select 1) select * from x', 'SELECT GET_LOCK(?, 1)']) {
      expect(tables(sql), sql).to.equal('none');
    }
  });

  it('reads host SQL, comments and quoting', () => {
    expect(tables('/* by hand */ UPDATE articles SET title = 1')).to.deep.equal(['articles']);
    expect(tables('update "Weird ""Name""" set a = 1')).to.deep.equal(['Weird "Name"']);
    expect(tables('UPDATE `categories` c SET c.name = 1')).to.deep.equal(['categories']);
    expect(tables('INSERT OR REPLACE INTO notes (id) VALUES (1)')).to.deep.equal(['notes']);
    expect(tables('REPLACE INTO notes (id) VALUES (1)')).to.deep.equal(['notes']);
    expect(tables('DELETE FROM ONLY public.notes WHERE id = 1')).to.deep.equal(['notes']);
    expect(tables("insert into notes (title) values ('a; b')")).to.deep.equal(['notes']);
  });

  it('takes what it cannot read as a write to every table', () => {
    for (const sql of [
      'update notes set a = 1; delete from tags',
      'UPDATE notes n JOIN tags t ON t.id = n.tag SET t.name = 1',
      'update notes, tags set tags.name = 1',
      'delete notes, tags from notes join tags',
      'with moved as (delete from notes returning *) insert into tags select * from moved',
      'CALL refresh()',
      'ALTER TABLE notes ADD COLUMN x int',
      'MERGE INTO notes USING tags ON true WHEN MATCHED THEN DELETE',
      'COPY notes FROM STDIN',
    ]) {
      expect(tables(sql), sql).to.equal(null);
    }
  });
});
