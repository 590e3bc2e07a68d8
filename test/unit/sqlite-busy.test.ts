/**
 * Every extended code of a lock held by another connection counts as busy: a reader that meets
 * SQLITE_BUSY_RECOVERY (another connection recovering the write-ahead log) waits or answers 503,
 * never 500.
 */
import { expect } from 'chai';
import { isSqliteBusy } from '../../plugin/storage/sqlite-busy.js';

describe('isSqliteBusy', () => {
  for (const code of ['SQLITE_BUSY', 'SQLITE_BUSY_RECOVERY', 'SQLITE_BUSY_SNAPSHOT', 'SQLITE_BUSY_TIMEOUT', 'SQLITE_LOCKED', 'SQLITE_LOCKED_SHAREDCACHE']) {
    it(`takes ${code} for busy`, () => expect(isSqliteBusy(Object.assign(new Error('busy'), { code }))).to.equal(true));
  }
  for (const code of ['SQLITE_ERROR', 'SQLITE_CONSTRAINT_UNIQUE', 'SQLITE_CORRUPT', '40001', undefined]) {
    it(`does not take ${String(code)} for busy`, () => expect(isSqliteBusy(Object.assign(new Error('other'), { code }))).to.equal(false));
  }
  it('accepts a thrown non-object', () => expect(isSqliteBusy(null)).to.equal(false));
});
