/**
 * The GraphQL replay's own checks: what the comparison tells apart and what it leaves free, the
 * deviations' checks, and the statements expected of an answer.
 */
import { strict as assert } from 'node:assert';
import { compareAnswers, statementsOf } from './replay/compare.js';
import { checkDeviation, withoutMessages } from './replay/deviations.js';
import { expectedStatements } from './replay/statements.js';

const JSON_FIELDS = new Set(['metadata']);
const answer = (body: unknown, status = 200) => ({ status, body });

describe('graphql replay harness', function () {
  it('tells apart values, statuses, lengths and the order of selected keys', function () {
    const recorded = answer({ data: { a: { id: '1', title: 'x' } } });
    assert.deepEqual(compareAnswers(recorded, answer({ data: { a: { id: '1', title: 'x' } } }), JSON_FIELDS), []);
    assert.match(compareAnswers(recorded, answer({ data: { a: { id: '2', title: 'x' } } }), JSON_FIELDS)[0]!, /\$\.data\.a\.id: "2", Strapi "1"/);
    assert.match(compareAnswers(recorded, answer({ data: { a: { title: 'x', id: '1' } } }), JSON_FIELDS)[0]!, /keys in the order title, id/);
    assert.match(compareAnswers(recorded, answer(recorded.body, 400), JSON_FIELDS)[0]!, /status 400, Strapi 200/);
    assert.match(compareAnswers(answer({ data: [1, 2] }), answer({ data: [1] }), JSON_FIELDS)[0]!, /1 items, Strapi 2/);
    assert.match(compareAnswers({ status: 400, text: 'GET query missing.' }, answer({ errors: [] }, 400), JSON_FIELDS)[0]!, /answered JSON/);
  });

  it('leaves free the key order of an error and of a JSON value, nothing else', function () {
    const recorded = answer({ errors: [{ message: 'm', extensions: { code: 'C' } }], data: { a: { metadata: { x: 1, y: 2 } } } });
    const reordered = answer({ errors: [{ extensions: { code: 'C' }, message: 'm' }], data: { a: { metadata: { y: 2, x: 1 } } } });
    assert.deepEqual(compareAnswers(recorded, reordered, JSON_FIELDS), []);
    assert.notDeepEqual(compareAnswers(recorded, reordered, new Set()), []);
  });

  it('checks a deviation by status, error codes and data, or by the recorded answer without its words', function () {
    const recorded = answer({ data: { a: { data: { id: '4' } } } });
    const deviation = { reason: 'D6: x', status: 200, codes: [], data: { a: { data: null } } };
    assert.deepEqual(checkDeviation(deviation, recorded, answer({ data: { a: { data: null } } })), []);
    assert.equal(checkDeviation(deviation, recorded, answer({ errors: [{ extensions: { code: 'FORBIDDEN' } }], data: { a: null } })).length, 2);
    const patched = { ...deviation, data: undefined, patch: (data: Record<string, any>) => void (data.a.data.id = '5') };
    assert.deepEqual(checkDeviation(patched, recorded, answer({ data: { a: { data: { id: '5' } } } })), []);
    const worded = (message: string, details: unknown) => answer({ errors: [{ message, extensions: { error: { name: 'ValidationError', message, details }, code: 'BAD_USER_INPUT' } }] });
    assert.deepEqual(withoutMessages(worded('a', {})), withoutMessages(worded('b', { path: 'sort[0]' })));
  });

  it('expects one statement per operation answered with data, none for introspection alone', function () {
    assert.equal(expectedStatements(undefined, '{ articles { data { id } } }', { data: {} }), 1);
    assert.equal(expectedStatements(undefined, '{ __schema { queryType { name } } }', { data: {} }), 0);
    assert.equal(expectedStatements(undefined, '{ __typename }', { data: {} }), 1);
    assert.equal(expectedStatements(undefined, '{ nope }', { errors: [] }), 0);
    const batch = JSON.stringify([{ query: '{ a }' }, { query: '{ __type(name: "A") { name } }' }, { query: '{ b }' }]);
    assert.equal(expectedStatements(batch, undefined, [{ data: {} }, { data: {} }, { errors: [] }]), 1);
    assert.equal(statementsOf('db;dur=1.20, sql;desc="statements=1"'), 1);
    assert.equal(statementsOf(null), null);
  });
});
