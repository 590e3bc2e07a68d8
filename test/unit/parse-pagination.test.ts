import { expect } from 'chai';
import { parsePagination, rejectTopLevelPagination } from '../../plugin/query/parse-pagination.js';
import { expectValidationError, fuzz, itRejects, parseQueryString } from '../support/query-string.js';

const CONFIG = { defaultLimit: 25, maxLimit: 100, withCount: true };

function paginationOf(query: string, config = CONFIG) {
  return parsePagination(parseQueryString(query).pagination, config, 'pagination');
}

/** The result of a page-mode query, typed as such. */
function pageOf(query: string) {
  const pagination = paginationOf(query);
  if (pagination.mode !== 'page') throw new Error(`expected page mode for ${query}`);
  return pagination;
}

describe('parsePagination', () => {
  describe('page mode', () => {
    it('defaults to page 1 of defaultLimit entries, withCount from the config', () => {
      expect(parsePagination(undefined, CONFIG, 'pagination')).to.deep.equal({ mode: 'page', page: 1, pageSize: 25, withCount: true });
      expect(paginationOf('pagination')).to.deep.equal({ mode: 'page', page: 1, pageSize: 25, withCount: true });
      expect(parsePagination(null, { ...CONFIG, withCount: false }, 'pagination')).to.deep.equal({ mode: 'page', page: 1, pageSize: 25, withCount: false });
    });

    it('reads page and pageSize', () => {
      expect(pageOf('pagination[page]=2&pagination[pageSize]=5')).to.deep.equal({ mode: 'page', page: 2, pageSize: 5, withCount: true });
      expect(pageOf('pagination[page]=3')).to.deep.equal({ mode: 'page', page: 3, pageSize: 25, withCount: true });
      expect(pageOf('pagination[pageSize]=7')).to.deep.equal({ mode: 'page', page: 1, pageSize: 7, withCount: true });
    });

    it('clamps as Strapi does, with maxLimit', () => {
      expect(pageOf('pagination[page]=0').page).to.equal(1);
      expect(pageOf('pagination[page]=-3').page).to.equal(1);
      expect(pageOf('pagination[page]=100').page).to.equal(100);
      expect(pageOf('pagination[pageSize]=0').pageSize).to.equal(1);
      expect(pageOf('pagination[pageSize]=-1').pageSize).to.equal(1);
      expect(pageOf('pagination[pageSize]=200').pageSize).to.equal(100);
      expect(pageOf('pagination[pageSize]=100').pageSize).to.equal(100);
    });

    it('accepts leading zeros and JS integers from programmatic callers', () => {
      expect(pageOf('pagination[page]=007')).to.deep.include({ page: 7 });
      expect(parsePagination({ page: 2, pageSize: 10 }, CONFIG, 'pagination')).to.deep.equal({ mode: 'page', page: 2, pageSize: 10, withCount: true });
    });

    it('never pages by more than maxLimit, even when defaultLimit is larger', () => {
      expect(parsePagination(undefined, { defaultLimit: 500, maxLimit: 100, withCount: true }, 'pagination')).to.deep.include({ pageSize: 100 });
    });
  });

  describe('offset mode', () => {
    it('reads start and limit', () => {
      expect(paginationOf('pagination[start]=10&pagination[limit]=5')).to.deep.equal({ mode: 'offset', start: 10, limit: 5, withCount: true });
      expect(paginationOf('pagination[start]=10')).to.deep.equal({ mode: 'offset', start: 10, limit: 25, withCount: true });
      expect(paginationOf('pagination[limit]=3')).to.deep.equal({ mode: 'offset', start: 0, limit: 3, withCount: true });
    });

    it('clamps as Strapi does, with maxLimit', () => {
      const offset = (query: string) => paginationOf(query) as { start: number; limit: number };
      expect(offset('pagination[start]=-5&pagination[limit]=2')).to.deep.include({ start: 0, limit: 2 });
      expect(offset('pagination[limit]=-1').limit).to.equal(100);
      expect(offset('pagination[limit]=0').limit).to.equal(1);
      expect(offset('pagination[limit]=-7').limit).to.equal(1);
      expect(offset('pagination[limit]=1000').limit).to.equal(100);
    });
  });

  describe('withCount', () => {
    const cases: [string, boolean][] = [
      ['true', true], ['t', true], ['1', true], ['TRUE', true],
      ['false', false], ['f', false], ['0', false], ['False', false],
    ];
    for (const [text, expected] of cases) {
      it(`withCount=${text} → ${expected}`, () => {
        expect(paginationOf(`pagination[withCount]=${text}`).withCount).to.equal(expected);
        expect(paginationOf(`pagination[withCount]=${text}&pagination[limit]=2`).withCount).to.equal(expected);
      });
    }

    it('takes booleans from programmatic callers', () => {
      expect(parsePagination({ withCount: false }, CONFIG, 'pagination').withCount).to.equal(false);
    });
  });

  describe('rejected input (400 at the parameter path)', () => {
    const cases: [query: string, path: string][] = [
      ['pagination=5', 'pagination'],
      ['pagination=', 'pagination'],
      ['pagination[0]=1', 'pagination'],
      ['pagination[page]=abc', 'pagination.page'],
      ['pagination[page]=1.5', 'pagination.page'],
      ['pagination[page]=1e3', 'pagination.page'],
      ['pagination[page]=+2', 'pagination.page'],
      ['pagination[page]=%202', 'pagination.page'],
      ['pagination[page]=', 'pagination.page'],
      ['pagination[page]', 'pagination.page'],
      ['pagination[page][0]=1', 'pagination.page'],
      ['pagination[page][x]=1', 'pagination.page'],
      ['pagination[page]=99999999999999999999', 'pagination.page'],
      ['pagination[pageSize]=ten', 'pagination.pageSize'],
      ['pagination[pageSize]=0x10', 'pagination.pageSize'],
      ['pagination[start]=-', 'pagination.start'],
      ['pagination[start]=5.', 'pagination.start'],
      ['pagination[limit]=all', 'pagination.limit'],
      ['pagination[limit]=Infinity', 'pagination.limit'],
      ['pagination[page]=1&pagination[limit]=2', 'pagination'],
      ['pagination[pageSize]=1&pagination[start]=2', 'pagination'],
      ['pagination[offset]=1', 'pagination.offset'],
      ['pagination[Page]=1', 'pagination.Page'],
      ['pagination[count]=true', 'pagination.count'],
      ['pagination[withCount]=maybe', 'pagination.withCount'],
      ['pagination[withCount]=', 'pagination.withCount'],
      ['pagination[withCount]', 'pagination.withCount'],
      ['pagination[withCount]=yes', 'pagination.withCount'],
      ['pagination[withCount][0]=true', 'pagination.withCount'],
    ];
    itRejects(cases, (query) => parsePagination(query.pagination, CONFIG, 'pagination'));

    it("words the messages as Strapi's for mixed modes and withCount", () => {
      expectValidationError(() => paginationOf('pagination[page]=1&pagination[limit]=2'), 'pagination', /^Invalid pagination parameters\. Expected either start\/limit or page\/pageSize/);
      expectValidationError(() => paginationOf('pagination[withCount]=maybe'), 'pagination.withCount', /^Invalid withCount parameter\. Expected "t","1","true","false","0","f"/);
    });

    it('rejects non-integer JS numbers and prefixes the caller path', () => {
      expectValidationError(() => parsePagination({ page: 1.5 }, CONFIG, 'pagination'), 'pagination.page');
      expectValidationError(() => parsePagination({ limit: Number.NaN }, CONFIG, 'pagination'), 'pagination.limit');
      expectValidationError(() => parsePagination({ page: 'x' }, CONFIG, 'populate.category.pagination'), 'populate.category.pagination.page');
    });
  });

  describe('rejectTopLevelPagination', () => {
    it('accepts a query without top-level page, pageSize, start or limit', () => {
      rejectTopLevelPagination(parseQueryString('pagination[page]=2&_limit=5&sort=title'));
    });

    for (const key of ['page', 'pageSize', 'start', 'limit']) {
      it(`rejects ?${key}=2 and ?${key} pointing at pagination[${key}]`, () => {
        const message = new RegExp(`pagination\\[${key}\\]`);
        expectValidationError(() => rejectTopLevelPagination(parseQueryString(`${key}=2`)), key, message);
        expectValidationError(() => rejectTopLevelPagination(parseQueryString(`fields=title&${key}`)), key, message);
      });
    }
  });

  it('never throws anything but a ValidationError (fuzz)', () => {
    const keys = ['page', 'pageSize', 'start', 'limit', 'withCount'];
    const values = ['1', '-1', '0', '25', '1.5', 'abc', '', 't', 'false', '9'.repeat(400), '-9007199254740993'];
    fuzz({ seed: 3, runs: 2000, keys, values, depth: 2 }, (input) => parsePagination(input, CONFIG, 'pagination'));
  });
});
