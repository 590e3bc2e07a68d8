// Nested selections: relations to one and to many (with their own filters, pagination, sort and
// publicationState), media single and multiple, components single and repeatable (with their
// arguments), dynamic zones through inline fragments with __typename, and the localizations.
import { group } from './build.mjs';

/** Articles `from`..`to` by id, each with `select` under its attributes. */
const articles = (select, range = '{ id: { between: [1, 6] } }', extra = '') =>
  `{ articles(filters: ${range}, pagination: { pageSize: 20 }${extra}) { data { id attributes { ${select} } } } }`;
const one = (id, select, field = 'article') => `{ ${field}(id: ${id}) { data { id attributes { ${select} } } } }`;
const CAT = '{ data { id attributes { name } } }';

export const relationOperations = group('relations', [
  { name: 'to-one', query: articles(`category ${CAT}`) },
  { name: 'to-one-null', query: one(3, `category ${CAT}`) },
  { name: 'to-one-mapped-by', query: articles(`featuredIn ${CAT}`, '{ id: { lt: 20 } }') },
  { name: 'to-one-user', query: articles('author { data { id attributes { username email } } }') },
  { name: 'to-many', query: articles(`categories ${CAT}`) },
  { name: 'to-many-filters', query: articles(`categories(filters: { sortOrder: { lt: 30 } }) ${CAT}`) },
  { name: 'to-many-sort', query: articles(`categories(sort: "name:desc") ${CAT}`) },
  { name: 'to-many-sort-two-keys', query: articles(`categories(sort: ["sortOrder:asc", "id:desc"]) ${CAT}`) },
  { name: 'to-many-page', query: articles(`categories(pagination: { page: 2, pageSize: 1 }) ${CAT}`) },
  { name: 'to-many-start-limit', query: articles(`categories(pagination: { start: 1, limit: 2 }) ${CAT}`) },
  { name: 'to-many-limit-only', query: articles(`categories(pagination: { limit: 1 }) ${CAT}`) },
  { name: 'to-many-pageSize-only', query: articles(`categories(pagination: { pageSize: 2 }) ${CAT}`) },
  { name: 'to-many-mixed-pagination', query: articles(`categories(pagination: { page: 1, limit: 2 }) ${CAT}`) },
  { name: 'to-many-filters-sort-page', query: articles(`categories(filters: { name: { ne: "Food" } }, sort: "name", pagination: { limit: 2 }) ${CAT}`) },
  { name: 'to-many-default-limit', query: one(1, `articles(sort: "id") { data { id } }`, 'category') },
  { name: 'to-many-limit-100', query: one(1, `articles(pagination: { limit: 100 }, sort: "id") { data { id } }`, 'category') },
  { name: 'category-articles-live', query: one(1, 'articles(pagination: { limit: 50 }) { data { id attributes { publishedAt } } }', 'category') },
  { name: 'category-articles-preview-public', query: one(1, 'articles(publicationState: PREVIEW, pagination: { limit: 50 }) { data { id } }', 'category') },
  { name: 'category-articles-preview-full-access', auth: 'full-access', query: one(1, 'articles(publicationState: PREVIEW, pagination: { limit: 50 }) { data { id } }', 'category') },
  { name: 'category-articles-filters', query: one(2, 'articles(filters: { featured: { eq: true } }) { data { id } }', 'category') },
  { name: 'category-parent-children', query: `{ categories(sort: "id") { data { id attributes { parent ${CAT} children(sort: "id") ${CAT} } } } }` },
  { name: 'category-featuredArticle', query: `{ categories(sort: "id") { data { id attributes { featuredArticle { data { id attributes { title } } } } } } }` },
  { name: 'two-levels', query: articles(`category { data { id attributes { name articles(sort: "id", pagination: { limit: 3 }) { data { id } } } } }`, '{ id: { in: [1, 2] } }') },
  { name: 'three-levels', query: one(1, `category { data { attributes { parent { data { id attributes { name children { data { id attributes { name } } } } } } } } }`, 'article') },
  { name: 'back-and-forth', query: one(2, `category { data { id attributes { articles(sort: "id:desc", pagination: { limit: 2 }) { data { id attributes { category { data { id } } } } } } } }`) },
  { name: 'forbidden-to-many', query: articles('relatedRestaurants { data { id } }') },
  { name: 'forbidden-to-one-nested', query: articles('author { data { id attributes { role { data { id } } } } }', '{ id: { in: [1, 2, 3] } }') },
  { name: 'forbidden-in-category', query: one(1, 'restaurants { data { id } }', 'category') },
  { name: 'forbidden-and-allowed', query: articles(`relatedRestaurants { data { id } } category ${CAT}`, '{ id: { in: [1, 2] } }') },
  { name: 'restricted-token-author', auth: 'restricted', query: articles('author { data { id } } category { data { id } }', '{ id: { in: [1, 2] } }') },
  { name: 'full-access-restaurants', auth: 'full-access', query: articles('relatedRestaurants(sort: "id") { data { id attributes { name } } }') },
  { name: 'full-access-user-role', auth: 'full-access', query: articles('author { data { id attributes { role { data { id attributes { name type } } } } } }', '{ id: { in: [1, 2] } }') },
  { name: 'user-role-public', query: '{ usersPermissionsUsers(sort: "id") { data { id attributes { username role { data { id } } } } } }' },
  { name: 'category-by-id-draft-featured', query: one(2, 'featuredArticle { data { id attributes { publishedAt } } }', 'category') },
]);

const FILE = '{ data { id attributes { name url mime } } }';

export const mediaOperations = group('media', [
  { name: 'single', query: articles(`headerImage ${FILE}`) },
  { name: 'single-formats', query: one(1, 'headerImage { data { id attributes { formats width height size ext hash } } }') },
  { name: 'multiple', query: articles(`gallery ${FILE}`) },
  { name: 'multiple-sort', query: articles('gallery(sort: "name:desc") { data { id } }') },
  { name: 'multiple-filters', query: articles('gallery(filters: { mime: { contains: "pdf" } }) { data { id } }') },
  { name: 'multiple-pagination', query: articles('gallery(pagination: { start: 1, limit: 1 }) { data { id } }') },
  { name: 'category-icon', query: `{ categories(sort: "id") { data { id attributes { icon ${FILE} } } } }` },
  { name: 'in-component', query: articles('seo { id metaImage { data { id attributes { name } } } }') },
  { name: 'in-repeatable-in-component', query: articles('seo { metaSocial { id image { data { id } } } }') },
  { name: 'file-related-morph', query: '{ uploadFile(id: 1) { data { id attributes { name related { __typename } } } } }' },
  { name: 'restaurant-cover-images', query: one(1, 'cover { data { id } } images { data { id } }', 'restaurant') },
]);

export const componentOperations = group('components', [
  { name: 'single', query: articles('seo { id metaTitle metaDescription keywords canonicalURL preventIndexing structuredData }') },
  { name: 'single-null', query: one(2, 'seo { id }') },
  { name: 'repeatable', query: articles('links { id label url isExternal }') },
  { name: 'repeatable-filters', query: articles('links(filters: { label: { eq: "Link 2" } }) { id label }') },
  { name: 'repeatable-sort', query: articles('links(sort: "label:desc") { id label }') },
  { name: 'repeatable-pagination', query: articles('links(pagination: { limit: 1, start: 1 }) { id label }') },
  { name: 'repeatable-page', query: articles('links(pagination: { page: 2, pageSize: 1 }) { id label }') },
  { name: 'nested-repeatable', query: articles('seo { metaTitle metaSocial { id socialNetwork title description } }') },
  { name: 'nested-repeatable-filters', query: articles('seo { metaSocial(filters: { socialNetwork: { eq: "Twitter" } }) { id socialNetwork } }') },
  { name: 'relations-in-component', query: articles(`related { id heading category ${CAT} }`, '{ id: { in: [2, 6, 8, 10] } }') },
  { name: 'forbidden-relation-in-component', query: articles('related { heading restaurants { data { id } } }', '{ id: { in: [2, 6] } }') },
  { name: 'full-access-relation-in-component', auth: 'full-access', query: articles('related { heading restaurants { data { id } } }', '{ id: { in: [2, 6] } }') },
  { name: 'restaurant-address-hours', auth: 'full-access', query: `{ restaurants(sort: "id", pagination: { limit: 3 }) { data { id attributes { address { id city geo } openingHours { id day opens closes closed } } } } }` },
  { name: 'restaurant-hours-filters', query: one(1, 'openingHours(filters: { closed: { eq: false } }, sort: "day") { day opens }', 'restaurant') },
  { name: 'typename-in-component', query: one(1, 'seo { __typename metaSocial { __typename } }') },
]);

const ZONE = `blocks { __typename
  ... on ComponentSharedRichText { id body }
  ... on ComponentSharedQuote { id title author }
  ... on ComponentSharedMedia { id caption file { data { id } } }
  ... on ComponentSharedSlider { id title files { data { id } } } }`;

export const zoneOperations = group('zones', [
  { name: 'all-parts', query: articles(ZONE) },
  { name: 'typename-only', query: articles('blocks { __typename }') },
  { name: 'one-part', query: articles('blocks { __typename ... on ComponentSharedQuote { title } }') },
  { name: 'no-typename', query: articles('blocks { ... on ComponentSharedRichText { body } }') },
  { name: 'relation-in-part', query: articles(`blocks { ... on ComponentSharedQuote { id category ${CAT} } }`, '{ id: { in: [4, 5, 7, 11] } }') },
  { name: 'slider-files-args', query: articles('blocks { ... on ComponentSharedSlider { files(pagination: { limit: 1 }) { data { id } } } }') },
  { name: 'error-member', query: articles('blocks { __typename ... on Error { code message } }', '{ id: { in: [1, 4] } }') },
  { name: 'named-fragment-on-part', query: `${articles('blocks { ...Quote }', '{ id: { in: [4, 5] } }')} fragment Quote on ComponentSharedQuote { title body }` },
  { name: 'empty-zone', query: one(12, 'blocks { __typename }') },
]);

export const localizationOperations = group('localizations', [
  { name: 'en-with-fr', query: articles('locale localizations { data { id attributes { locale title } } }', '{ id: { in: [1, 5, 9] } }') },
  { name: 'fr-with-en', query: `{ articles(locale: "fr", pagination: { pageSize: 20 }) { data { id attributes { locale localizations { data { id attributes { locale } } } } } } }` },
  { name: 'preview-public', query: articles('localizations(publicationState: PREVIEW) { data { id } }', '{ id: { in: [9, 33] } }') },
  { name: 'preview-full-access', auth: 'full-access', query: articles('localizations(publicationState: PREVIEW) { data { id } }', '{ id: { in: [9, 33] } }') },
  { name: 'filters', query: articles('localizations(filters: { kind: { eq: "news" } }) { data { id } }', '{ id: { in: [1, 5, 9, 17] } }') },
  { name: 'all-locales-list', query: `{ articles(locale: "all", filters: { id: { in: [1, 41] } }) { data { id attributes { locale localizations { data { id } } } } } }` },
]);
