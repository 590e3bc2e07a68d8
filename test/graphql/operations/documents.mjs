// The document's own features: aliases (one relation twice with different arguments), named
// fragments, variables (defaults, wrong types, missing), @include/@skip, __typename at every
// level, several root fields in one operation, partial `meta` selections, introspection.
import { group } from './build.mjs';

export const aliasOperations = group('aliases', [
  { name: 'root-twice', query: '{ first: articles(pagination: { limit: 2 }) { data { id } } last: articles(sort: "id:desc", pagination: { limit: 2 }) { data { id } } }' },
  { name: 'relation-twice', query: '{ articles(filters: { id: { lte: 6 } }) { data { id attributes { firstTwo: categories(sort: "id", pagination: { limit: 2 }) { data { id } } food: categories(filters: { name: { eq: "Food" } }) { data { id } } } } } }' },
  { name: 'fields-renamed', query: '{ article(id: 1) { entry: data { key: id fields: attributes { heading: title path: slug } } } }' },
  { name: 'attributes-twice', query: '{ article(id: 1) { data { id a: attributes { title } b: attributes { slug category { data { id } } } } } }' },
  { name: 'same-field-merged', query: '{ article(id: 1) { data { attributes { title } attributes { slug } } } }' },
  { name: 'zone-aliases', query: '{ article(id: 11) { data { attributes { first: blocks { __typename } again: blocks { ... on ComponentSharedQuote { t: title } } } } } }' },
  { name: 'meta-aliases', query: '{ articles { m: meta { p: pagination { t: total size: pageSize } } } }' },
  { name: 'components-twice', query: '{ article(id: 1) { data { attributes { one: links(pagination: { limit: 1 }) { label } all: links { label } } } } }' },
  { name: 'conflicting-arguments', query: '{ article(id: 1) { data { attributes { categories(sort: "id") { data { id } } categories(sort: "name") { data { id } } } } } }' },
  { name: 'data-twice-aliased', query: '{ articles(pagination: { limit: 2 }) { a: data { id } b: data { attributes { title } } } }' },
]);

const ENTRY = 'fragment Entry on ArticleEntity { id attributes { ...Fields } } fragment Fields on Article { title category { data { id } } }';

export const fragmentOperations = group('fragments', [
  { name: 'named', query: `{ articles(pagination: { limit: 3 }) { data { ...Entry } } } ${ENTRY}` },
  { name: 'named-nested-twice', query: `{ a: article(id: 1) { data { ...Entry } } b: article(id: 2) { data { ...Entry } } } ${ENTRY}` },
  { name: 'inline-on-type', query: '{ article(id: 1) { data { ... on ArticleEntity { id } attributes { ... on Article { title } } } } }' },
  { name: 'inline-no-condition', query: '{ article(id: 1) { data { ... { id } } } }' },
  { name: 'on-wrapper', query: '{ articles(pagination: { limit: 1 }) { ...Page } } fragment Page on ArticleEntityResponseCollection { data { id } meta { pagination { total } } }' },
  { name: 'unused', query: '{ article(id: 1) { data { id } } } fragment Unused on Article { title }' },
  { name: 'unknown', query: '{ article(id: 1) { data { ...Missing } } }' },
  { name: 'cycle', query: '{ article(id: 1) { data { ...A } } } fragment A on ArticleEntity { ...B } fragment B on ArticleEntity { ...A }' },
  { name: 'wrong-type', query: '{ article(id: 1) { data { ...C } } } fragment C on Category { name }' },
  { name: 'on-query', query: '{ ...Roots } fragment Roots on Query { article(id: 1) { data { id } } }' },
]);

export const variableOperations = group('variables', [
  { name: 'id', query: 'query ($id: ID) { article(id: $id) { data { id } } }', variables: { id: '3' } },
  { name: 'id-as-number', query: 'query ($id: ID) { article(id: $id) { data { id } } }', variables: { id: 3 } },
  { name: 'filters-object', query: 'query ($f: ArticleFiltersInput) { articles(filters: $f) { data { id } } }', variables: { f: { kind: { eq: 'news' }, featured: { eq: false } } } },
  { name: 'inside-filters', query: 'query ($kind: String) { articles(filters: { kind: { eq: $kind } }) { data { id } } }', variables: { kind: 'review' } },
  { name: 'pagination', query: 'query ($p: PaginationArg) { articles(pagination: $p) { data { id } meta { pagination { page pageSize } } } }', variables: { p: { page: 3, pageSize: 4 } } },
  { name: 'sort-list', query: 'query ($s: [String]) { articles(sort: $s, pagination: { limit: 3 }) { data { id } } }', variables: { s: ['views:desc'] } },
  { name: 'sort-single-coerced', query: 'query ($s: [String]) { articles(sort: $s, pagination: { limit: 3 }) { data { id } } }', variables: { s: 'rating' } },
  { name: 'publication-state', auth: 'full-access', query: 'query ($s: PublicationState) { articles(publicationState: $s, filters: { id: { eq: 4 } }) { data { id } } }', variables: { s: 'PREVIEW' } },
  { name: 'locale', query: 'query ($l: I18NLocaleCode) { articles(locale: $l) { data { id } } }', variables: { l: 'fr' } },
  { name: 'default-used', query: 'query ($limit: Int = 2) { articles(pagination: { limit: $limit }) { data { id } } }' },
  { name: 'default-overridden', query: 'query ($limit: Int = 2) { articles(pagination: { limit: $limit }) { data { id } } }', variables: { limit: 4 } },
  { name: 'default-null-given', query: 'query ($limit: Int = 2) { articles(pagination: { limit: $limit }) { data { id } } }', variables: { limit: null } },
  { name: 'missing-optional', query: 'query ($id: ID) { article(id: $id) { data { id } } }' },
  { name: 'missing-required', query: 'query ($id: ID!) { article(id: $id) { data { id } } }' },
  { name: 'wrong-type-int', query: 'query ($limit: Int) { articles(pagination: { limit: $limit }) { data { id } } }', variables: { limit: 'two' } },
  { name: 'wrong-type-enum', query: 'query ($s: PublicationState) { articles(publicationState: $s) { data { id } } }', variables: { s: 'DRAFTS' } },
  { name: 'wrong-input-field', query: 'query ($f: ArticleFiltersInput) { articles(filters: $f) { data { id } } }', variables: { f: { nope: { eq: 1 } } } },
  { name: 'unused-variable', query: 'query ($unused: Int) { article(id: 1) { data { id } } }', variables: { unused: 1 } },
  { name: 'undefined-variable', query: '{ article(id: $id) { data { id } } }', variables: { id: 1 } },
  { name: 'variables-not-an-object', query: 'query ($id: ID) { article(id: $id) { data { id } } }', variables: [1] },
  { name: 'variables-as-string', query: 'query ($id: ID) { article(id: $id) { data { id } } }', variables: '{"id":"5"}' },
  { name: 'in-directive', query: 'query ($with: Boolean!) { article(id: 1) { data { id attributes { title @include(if: $with) } } } }', variables: { with: false } },
  { name: 'long-variable', query: 'query ($v: Long) { articles(filters: { viewsTotal: { eq: $v } }) { data { id } } }', variables: { v: '9007199254740993' } },
]);

export const directiveOperations = group('directives', [
  { name: 'include-true', query: '{ article(id: 1) { data { id attributes { title @include(if: true) slug } } } }' },
  { name: 'include-false', query: '{ article(id: 1) { data { id attributes { title @include(if: false) slug } } } }' },
  { name: 'skip-true', query: '{ article(id: 1) { data { id attributes { title @skip(if: true) slug } } } }' },
  { name: 'skip-relation', query: '{ article(id: 1) { data { attributes { category @skip(if: true) { data { id } } title } } } }' },
  { name: 'skip-root-field', query: '{ a: article(id: 1) @skip(if: true) { data { id } } b: article(id: 2) { data { id } } }' },
  { name: 'include-on-fragment', query: '{ article(id: 1) { data { id ... on ArticleEntity @include(if: false) { attributes { title } } } } }' },
  { name: 'skip-and-include', query: '{ article(id: 1) { data { id attributes { title @skip(if: false) @include(if: true) } } } }' },
  { name: 'skip-meta', query: '{ articles(pagination: { limit: 1 }) { data { id } meta @skip(if: true) { pagination { total } } } }' },
  { name: 'unknown-directive', query: '{ article(id: 1) { data { id @nope } } }' },
  { name: 'directive-missing-argument', query: '{ article(id: 1) { data { id @include } } }' },
]);

export const typenameOperations = group('typename', [
  { name: 'root', query: '{ __typename }' },
  { name: 'everywhere', query: '{ __typename articles(pagination: { limit: 2 }) { __typename data { __typename id attributes { __typename title category { __typename data { __typename id } } } } meta { __typename pagination { __typename total } } } }' },
  { name: 'entry-response', query: '{ article(id: 999) { __typename data { id } } }' },
  { name: 'relation-collection', query: '{ article(id: 1) { data { attributes { categories { __typename data { __typename } } gallery { __typename } } } } }' },
  { name: 'media', query: '{ article(id: 1) { data { attributes { headerImage { __typename data { __typename attributes { __typename } } } } } } }' },
  { name: 'aliased', query: '{ t: __typename article(id: 1) { kind: __typename } }' },
  { name: 'with-other-root', query: '{ __typename category(id: 1) { data { id } } }' },
]);

export const multiRootOperations = group('roots', [
  { name: 'two-types', query: '{ articles(pagination: { limit: 2 }) { data { id } } categories(pagination: { limit: 2 }) { data { id } } }' },
  { name: 'list-and-entry', query: '{ articles(pagination: { limit: 1 }) { meta { pagination { total } } } article(id: 5) { data { id } } }' },
  { name: 'one-forbidden', query: '{ restaurants { data { id } } categories(pagination: { limit: 1 }) { data { id } } }' },
  { name: 'one-bad-argument', query: '{ a: articles(sort: "nope") { data { id } } b: articles(pagination: { limit: 1 }) { data { id } } }' },
  { name: 'five-roots', query: '{ articles(pagination: { limit: 1 }) { data { id } } categories(pagination: { limit: 1 }) { data { id } } uploadFiles(pagination: { limit: 1 }) { data { id } } usersPermissionsUsers(pagination: { limit: 1 }) { data { id } } article(id: 2) { data { id } } }' },
  { name: 'every-list-full-access', auth: 'full-access', query: '{ articles { meta { pagination { total } } } categories { meta { pagination { total } } } restaurants { meta { pagination { total } } } uploadFiles { meta { pagination { total } } } usersPermissionsUsers { meta { pagination { total } } } usersPermissionsRoles { meta { pagination { total } } } i18NLocales { meta { pagination { total } } } uploadFolders { meta { pagination { total } } } }' },
  { name: 'me-public', query: '{ me { id username } }' },
  { name: 'me-token', auth: 'full-access', query: '{ me { id username } }' },
]);

export const metaOperations = group('meta', [
  { name: 'total-only', query: '{ articles { meta { pagination { total } } } }' },
  { name: 'page-only', query: '{ articles(pagination: { page: 3 }) { meta { pagination { page } } } }' },
  { name: 'pageCount-only', query: '{ articles(pagination: { pageSize: 7 }) { meta { pagination { pageCount } } } }' },
  { name: 'meta-without-data', query: '{ categories(filters: { sortOrder: { lt: 20 } }) { meta { pagination { total pageCount } } } }' },
  { name: 'start-limit-figures', query: '{ articles(pagination: { start: 10, limit: 5 }) { meta { pagination { total page pageSize pageCount } } } }' },
  { name: 'empty-list', query: '{ articles(filters: { id: { eq: 999 } }) { data { id } meta { pagination { total page pageSize pageCount } } } }' },
  { name: 'with-filters-total', query: '{ articles(filters: { featured: { eq: true } }) { meta { pagination { total } } } }' },
  { name: 'locale-all-total', query: '{ articles(locale: "all") { meta { pagination { total } } } }' },
]);

export const introspectionOperations = group('introspection', [
  { name: 'type-article', query: '{ __type(name: "ArticleEntity") { name kind fields { name } } }' },
  { name: 'schema-roots', query: '{ __schema { queryType { name } mutationType { name } subscriptionType { name } } }' },
  { name: 'mixed-with-data', query: '{ __type(name: "Pagination") { name } article(id: 1) { data { id } } }' },
]);
