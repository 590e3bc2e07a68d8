// Requests refused as a whole: parse and validation errors, operation names, methods, empty and
// batched requests, and the depth of a selection.
import { group } from './build.mjs';

/** Articles → category → articles, `times` over, one entry per list: 6 levels of selection per turn. */
const nested = (times) => {
  let inner = '{ data { id } }';
  for (let turn = 0; turn < times; turn += 1) inner = `{ data { id attributes { category { data { id attributes { articles(pagination: { limit: 1 }) ${inner} } } } } } }`;
  return `{ articles(pagination: { limit: 1 }) ${inner} }`;
};

export const requestErrorOperations = group('errors', [
  { name: 'parse-unclosed', query: '{ articles { data { id }' },
  { name: 'parse-garbage', query: 'not graphql at all' },
  { name: 'parse-bad-string', query: '{ article(id: "1) { data { id } } }' },
  { name: 'unknown-root-field', query: '{ nope { id } }' },
  { name: 'unknown-nested-field', query: '{ articles { data { attributes { nope } } } }' },
  { name: 'unknown-argument', query: '{ articles(where: {}) { data { id } } }' },
  { name: 'scalar-with-selection', query: '{ articles { data { id { x } } } }' },
  { name: 'object-without-selection', query: '{ articles { data } }' },
  { name: 'wrong-argument-type', query: '{ articles(pagination: { limit: "ten" }) { data { id } } }' },
  { name: 'wrong-filter-operator', query: '{ articles(filters: { title: { like: "x" } }) { data { id } } }' },
  { name: 'wrong-filter-value-type', query: '{ articles(filters: { views: { eq: "many" } }) { data { id } } }' },
  { name: 'several-validation-errors', query: '{ nope articles(x: 1) { data { id nope } } }' },
  { name: 'unnamed-with-two-operations', query: 'query A { article(id: 1) { data { id } } } query B { article(id: 2) { data { id } } }' },
  { name: 'operation-name-chosen', query: 'query A { article(id: 1) { data { id } } } query B { article(id: 2) { data { id } } }', operationName: 'B' },
  { name: 'operation-name-unknown', query: 'query A { article(id: 1) { data { id } } }', operationName: 'C' },
  { name: 'operation-name-on-anonymous', query: '{ article(id: 1) { data { id } } }', operationName: 'A' },
  { name: 'duplicate-operation-names', query: 'query A { article(id: 1) { data { id } } } query A { article(id: 2) { data { id } } }', operationName: 'A' },
  { name: 'anonymous-and-named', query: '{ article(id: 1) { data { id } } } query B { article(id: 2) { data { id } } }', operationName: 'B' },
  { name: 'subscription', query: 'subscription { articles { data { id } } }' },
  { name: 'empty-query', query: '' },
  { name: 'blank-query', query: '   ' },
  { name: 'no-query', body: { variables: {} } },
  { name: 'query-not-a-string', body: { query: 42 } },
  { name: 'body-not-json', rawBody: '{ "query": ' },
  { name: 'body-is-a-string', body: '{ articles { data { id } } }' },
  { name: 'body-empty-object', body: {} },
  { name: 'only-fragments', query: 'fragment F on Article { title }' },
  { name: 'comment-only', query: '# nothing here' },
  { name: 'get-query', method: 'GET', query: '{ articles(pagination: { limit: 2 }) { data { id } } }' },
  { name: 'get-with-variables', method: 'GET', query: 'query ($id: ID) { article(id: $id) { data { id } } }', variables: { id: '2' } },
  { name: 'get-operation-name', method: 'GET', query: 'query A { article(id: 1) { data { id } } } query B { article(id: 3) { data { id } } }', operationName: 'B' },
  { name: 'get-mutation', method: 'GET', query: 'mutation { deleteArticle(id: 1) { data { id } } }' },
  { name: 'get-no-query', method: 'GET' },
  { name: 'get-parse-error', method: 'GET', query: '{ articles {' },
  { name: 'batch-two', body: [{ query: '{ article(id: 1) { data { id } } }' }, { query: '{ article(id: 2) { data { id } } }' }] },
  { name: 'batch-one-invalid', body: [{ query: '{ article(id: 1) { data { id } } }' }, { query: '{ nope }' }] },
  { name: 'batch-empty', body: [] },
  { name: 'batch-with-variables', body: [{ query: 'query ($id: ID) { article(id: $id) { data { id } } }', variables: { id: '7' } }, { query: '{ __typename }' }] },
  { name: 'depth-nested-twice', query: nested(2) },
  { name: 'depth-nested-4-times', query: nested(4) },
  { name: 'content-type-text', contentType: 'text/plain', rawBody: '{"query":"{ article(id: 1) { data { id } } }"}' },
  { name: 'put-method', method: 'PUT', query: '{ article(id: 1) { data { id } } }' },
  { name: 'mutation-unknown-field', query: 'mutation { nope }' },
]);
