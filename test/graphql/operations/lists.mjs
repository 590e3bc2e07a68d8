// Lists: pagination in both forms (and mixed: Strapi's error), defaults and limits; sort, by
// several keys and by dot paths; publicationState with and without the right to read drafts;
// locale, `all` included; single entries by id.
import { group, ids } from './build.mjs';

const META = 'meta { pagination { total page pageSize pageCount } }';
const list = (args, field = 'articles') => ids(field, args, `data { id } ${META}`);

export const paginationOperations = group('pagination', [
  { name: 'default', query: list('') },
  { name: 'empty-object', query: list('pagination: {}') },
  { name: 'page-2', query: list('pagination: { page: 2 }') },
  { name: 'page-2-size-5', query: list('pagination: { page: 2, pageSize: 5 }') },
  { name: 'page-size-only', query: list('pagination: { pageSize: 3 }') },
  { name: 'page-size-100', query: list('pagination: { pageSize: 100 }') },
  { name: 'page-size-0', query: list('pagination: { pageSize: 0 }') },
  { name: 'page-size-negative', query: list('pagination: { pageSize: -1 }') },
  { name: 'page-0', query: list('pagination: { page: 0, pageSize: 5 }') },
  { name: 'page-past-the-end', query: list('pagination: { page: 9, pageSize: 5 }') },
  { name: 'page-last-partial', query: list('pagination: { page: 4, pageSize: 10 }') },
  { name: 'start-limit', query: list('pagination: { start: 5, limit: 5 }') },
  { name: 'start-only', query: list('pagination: { start: 28 }') },
  { name: 'limit-only', query: list('pagination: { limit: 4 }') },
  { name: 'limit-0', query: list('pagination: { limit: 0 }') },
  { name: 'limit-negative', query: list('pagination: { limit: -1 }') },
  { name: 'start-negative', query: list('pagination: { start: -3, limit: 2 }') },
  { name: 'start-not-a-multiple', query: list('pagination: { start: 3, limit: 4 }') },
  { name: 'start-past-the-end', query: list('pagination: { start: 100, limit: 5 }') },
  { name: 'mixed-page-limit', query: list('pagination: { page: 1, limit: 5 }') },
  { name: 'mixed-start-pageSize', query: list('pagination: { start: 0, pageSize: 5 }') },
  { name: 'mixed-all-four', query: list('pagination: { page: 1, pageSize: 2, start: 0, limit: 2 }') },
  { name: 'categories-page-2', query: list('pagination: { page: 2, pageSize: 5 }', 'categories') },
  { name: 'files-limit', query: list('pagination: { limit: 3 }', 'uploadFiles') },
  { name: 'users-start', query: list('pagination: { start: 6 }', 'usersPermissionsUsers') },
  { name: 'with-filters', query: list('filters: { featured: { eq: true } }, pagination: { pageSize: 2, page: 2 }') },
]);

const sorted = (sort, extra = '', select = 'data { id }') => ids('articles', `sort: ${sort}, pagination: { pageSize: 12 }${extra}`, select);

export const sortOperations = group('sort', [
  { name: 'title-asc', query: sorted('"title"', '', 'data { id attributes { title } }') },
  { name: 'title-desc-id', query: sorted('["title:desc", "id:asc"]') },
  { name: 'views-desc', query: sorted('"views:desc"') },
  { name: 'rating-asc', query: sorted('"rating:asc"') },
  { name: 'id-desc', query: sorted('"id:DESC"') },
  { name: 'two-keys', query: sorted('["featured:desc", "views:asc"]') },
  { name: 'publishDate', query: sorted('["publishDate", "id"]') },
  { name: 'kind-then-id', query: sorted('["kind:asc", "id:desc"]') },
  { name: 'nullable-contactEmail', query: sorted('["contactEmail:asc", "id:asc"]', ', filters: { contactEmail: { notNull: true } }') },
  { name: 'dot-category-name', query: sorted('["category.name:asc", "id:asc"]', ', filters: { category: { id: { notNull: true } } }') },
  { name: 'dot-category-sortOrder-desc', query: sorted('["category.sortOrder:desc", "id"]', ', filters: { category: { id: { notNull: true } } }') },
  { name: 'dot-seo-metaTitle', query: sorted('["seo.metaTitle", "id"]', ', filters: { seo: { metaTitle: { notNull: true } } }') },
  { name: 'dot-author-username', query: sorted('["author.username:desc", "id"]', ', filters: { author: { id: { notNull: true } } }') },
  { name: 'empty-list', query: sorted('[]') },
  { name: 'unknown-attribute', query: sorted('"nope"') },
  { name: 'bad-direction', query: sorted('"title:sideways"') },
  { name: 'private-attribute', query: sorted('"internalNotes"') },
  { name: 'forbidden-relation', query: sorted('"relatedRestaurants.name"') },
  { name: 'categories-sortOrder', query: ids('categories', 'sort: "sortOrder:desc"', 'data { id attributes { sortOrder } }') },
  { name: 'files-size', query: ids('uploadFiles', 'sort: ["size:desc", "id"]', 'data { id }') },
]);

const stateList = (args) => ids('articles', `${args}pagination: { pageSize: 60 }`, 'data { id attributes { publishedAt } } meta { pagination { total } }');

export const publicationOperations = group('publication', [
  { name: 'live-explicit', query: stateList('publicationState: LIVE, ') },
  { name: 'preview-public', query: stateList('publicationState: PREVIEW, ') },
  { name: 'preview-full-access', auth: 'full-access', query: stateList('publicationState: PREVIEW, ') },
  { name: 'preview-restricted-token', auth: 'restricted', query: stateList('publicationState: PREVIEW, ') },
  { name: 'preview-drafts-only', auth: 'full-access', query: stateList('publicationState: PREVIEW, filters: { publishedAt: { null: true } }, ') },
  { name: 'live-full-access', auth: 'full-access', query: stateList('') },
  { name: 'bad-enum', query: stateList('publicationState: DRAFT, ') },
  { name: 'string-instead-of-enum', query: stateList('publicationState: "PREVIEW", ') },
  { name: 'draft-by-id-public', query: '{ article(id: 4) { data { id attributes { publishedAt } } } }' },
  { name: 'draft-by-id-full-access', auth: 'full-access', query: '{ article(id: 4) { data { id attributes { publishedAt } } } }' },
]);

const localized = (args) => ids('articles', `${args}pagination: { pageSize: 60 }`, 'data { id attributes { locale } } meta { pagination { total } }');

export const localeOperations = group('locale', [
  { name: 'default', query: localized('') },
  { name: 'fr', query: localized('locale: "fr", ') },
  { name: 'en', query: localized('locale: "en", ') },
  { name: 'all', query: localized('locale: "all", ') },
  { name: 'unknown-code', query: localized('locale: "de", ') },
  { name: 'malformed-code', query: localized('locale: "not a locale", ') },
  { name: 'fr-preview', auth: 'full-access', query: localized('locale: "fr", publicationState: PREVIEW, ') },
  { name: 'fr-with-filters', query: localized('locale: "fr", filters: { kind: { eq: "news" } }, ') },
  { name: 'by-id-fr-entry', query: '{ article(id: 41) { data { id attributes { locale title } } } }' },
  { name: 'by-id-with-locale', query: '{ article(id: 41, locale: "en") { data { id attributes { locale } } } }' },
  { name: 'i18n-locales', query: '{ i18NLocales { data { id attributes { code name } } } }' },
  { name: 'i18n-locales-full-access', auth: 'full-access', query: '{ i18NLocales { data { id attributes { code name } } } }' },
]);

const entry = (id, field = 'article', select = 'data { id attributes { title } }') => `{ ${field}(id: ${id}) { ${select} } }`;

export const entryOperations = group('entry', [
  { name: 'existing', query: entry(1) },
  { name: 'existing-string-id', query: entry('"2"') },
  { name: 'missing', query: entry(999) },
  { name: 'non-numeric', query: entry('"abc"') },
  { name: 'negative', query: entry('"-1"') },
  { name: 'zero', query: entry(0) },
  { name: 'decimal', query: entry('"1.5"') },
  { name: 'no-id-argument', query: '{ article { data { id } } }' },
  { name: 'null-id', query: entry('null') },
  { name: 'all-scalars', query: entry(1, 'article', 'data { id attributes { title slug description content kind contactEmail publishDate publishTime scheduledAt views viewsTotal rating price featured metadata readingMinutes locale createdAt updatedAt publishedAt } }') },
  { name: 'metadata-object', query: entry(6, 'article', 'data { id attributes { metadata } }') },
  { name: 'metadata-string', query: entry(2, 'article', 'data { id attributes { metadata } }') },
  { name: 'category', query: entry(3, 'category', 'data { id attributes { name slug description sortOrder createdAt } }') },
  { name: 'category-missing', query: entry(99, 'category', 'data { id attributes { name } }') },
  { name: 'restaurant-public-findOne', query: entry(1, 'restaurant', 'data { id attributes { name priceRange capacity rating } }') },
  { name: 'file', query: entry(1, 'uploadFile', 'data { id attributes { name alternativeText caption width height formats hash ext mime size url previewUrl provider provider_metadata } }') },
  { name: 'file-public-findOne', query: entry(15, 'uploadFile', 'data { id attributes { name mime } }') },
  { name: 'user', query: entry(2, 'usersPermissionsUser', 'data { id attributes { username email provider confirmed blocked } }') },
  { name: 'role-forbidden', query: entry(1, 'usersPermissionsRole', 'data { id attributes { name } }') },
  { name: 'role-full-access', auth: 'full-access', query: entry(1, 'usersPermissionsRole', 'data { id attributes { name type description } }') },
]);
