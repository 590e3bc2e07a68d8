// Mutations, recorded with a full-access token unless said, after every query and in this order:
// each may read what an earlier one wrote (ids 51… are the articles created here).
import { group } from './build.mjs';

const ENTRY = 'data { id attributes { title slug locale publishedAt createdAt updatedAt } }';
const FULL = `data { id attributes { title slug kind views featured publishedAt locale
  category { data { id } } categories { data { id } } author { data { id } } headerImage { data { id } } gallery { data { id } }
  seo { id metaTitle metaSocial { id socialNetwork title } } links { id label url } related { id heading category { data { id } } }
  blocks { __typename ... on ComponentSharedRichText { id body } ... on ComponentSharedQuote { id title author } } } }`;
const mutation = (name, body, extra = {}) => ({ name, kind: 'mutation', auth: 'full-access', query: `mutation { ${body} }`, ...extra });

const creates = [
  mutation('create-minimal', `createArticle(data: { title: "Created by GraphQL" }) { ${ENTRY} }`),
  mutation('create-published', `createArticle(data: { title: "Published at once", publishedAt: "2024-05-01T10:00:00.000Z" }) { ${ENTRY} }`),
  mutation('create-scalars', `createArticle(data: { title: "Scalars", slug: "scalars-gql", kind: review, views: 12, viewsTotal: "9007199254740995", rating: 1.5, price: 9.99, featured: true, publishDate: "2024-02-29", publishTime: "10:30:00.000", metadata: { a: [1, 2] } }) { data { id attributes { slug kind views viewsTotal rating price featured publishDate publishTime metadata } } }`),
  mutation('create-relations', `createArticle(data: { title: "Related", category: 3, categories: [2, 5], author: 1, headerImage: 1, gallery: [2, 3] }) { ${FULL} }`),
  mutation('create-components', `createArticle(data: { title: "Components", seo: { metaTitle: "Meta", metaSocial: [{ socialNetwork: Twitter, title: "T" }] }, links: [{ label: "One", url: "https://example.com/1" }, { label: "Two" }], related: { heading: "See also", category: 4 } }) { ${FULL} }`),
  mutation('create-zone', `createArticle(data: { title: "Zone", blocks: [{ __typename: "ComponentSharedRichText", body: "Hello" }, { __typename: "ComponentSharedQuote", title: "Q", author: "A" }] }) { ${FULL} }`),
  mutation('create-zone-unknown-component', `createArticle(data: { title: "Bad zone", blocks: [{ __typename: "ComponentSharedNope", body: "x" }] }) { ${ENTRY} }`),
  mutation('create-zone-without-typename', `createArticle(data: { title: "Bad zone 2", blocks: [{ body: "x" }] }) { ${ENTRY} }`),
  mutation('create-fr', `createArticle(locale: "fr", data: { title: "Article en français" }) { ${ENTRY} }`),
  mutation('create-unknown-locale', `createArticle(locale: "de", data: { title: "Deutsch" }) { ${ENTRY} }`),
  mutation('create-without-title', `createArticle(data: { views: 1 }) { ${ENTRY} }`),
  mutation('create-empty-title', `createArticle(data: { title: "" }) { ${ENTRY} }`),
  mutation('create-bad-enum', `createArticle(data: { title: "x", kind: opinion }) { ${ENTRY} }`),
  mutation('create-missing-category', `createArticle(data: { title: "Missing category", category: 999 }) { ${ENTRY} }`),
  mutation('create-duplicate-slug', `createArticle(data: { title: "Duplicate", slug: "the-honest-tips-1" }) { ${ENTRY} }`),
  mutation('create-bad-email', `createArticle(data: { title: "Email", contactEmail: "not-an-email" }) { ${ENTRY} }`),
  {
    name: 'create-with-variables', kind: 'mutation', auth: 'full-access',
    query: 'mutation ($data: ArticleInput!) { createArticle(data: $data) { data { id attributes { title views } } } }',
    variables: { data: { title: 'From variables', views: 3 } },
  },
  mutation('create-data-missing', `createArticle { ${ENTRY} }`),
  mutation('create-category', 'createCategory(data: { name: "Gardening", slug: "gardening", sortOrder: 7, parent: 1 }) { data { id attributes { name slug sortOrder parent { data { id } } } } }'),
  mutation('create-restaurant', 'createRestaurant(data: { name: "GraphQL Grill", priceRange: cheap, address: { city: "Porto", street: "1 rua" }, openingHours: [{ day: monday, opens: "09:00:00.000", closes: "17:00:00.000" }], categories: [1] }) { data { id attributes { name priceRange address { city street } openingHours { day opens closes } categories { data { id } } } } }'),
];

const updates = [
  mutation('update-title', `updateArticle(id: 1, data: { title: "Renamed by GraphQL" }) { ${ENTRY} }`),
  mutation('update-relations-replaced', `updateArticle(id: 2, data: { categories: [7], category: null }) { ${FULL} }`),
  mutation('update-components-replaced', `updateArticle(id: 4, data: { links: [{ label: "Only link" }] }) { data { id attributes { links { id label } } } }`),
  mutation('update-component-by-id', `updateArticle(id: 1, data: { seo: { id: 1, metaTitle: "Kept id" } }) { data { id attributes { seo { id metaTitle metaDescription } } } }`),
  mutation('update-zone', `updateArticle(id: 5, data: { blocks: [{ __typename: "ComponentSharedQuote", title: "Only quote" }] }) { ${FULL} }`),
  mutation('update-unpublish', `updateArticle(id: 3, data: { publishedAt: null }) { ${ENTRY} }`),
  mutation('update-publish-draft', `updateArticle(id: 4, data: { publishedAt: "2024-06-01T00:00:00.000Z" }) { ${ENTRY} }`),
  mutation('update-missing', `updateArticle(id: 999, data: { title: "Nobody" }) { ${ENTRY} }`),
  mutation('update-non-numeric-id', `updateArticle(id: "abc", data: { title: "Nobody" }) { ${ENTRY} }`),
  mutation('update-fr-entry', `updateArticle(id: 41, locale: "fr", data: { title: "Renommé" }) { ${ENTRY} }`),
  mutation('update-required-to-null', `updateArticle(id: 6, data: { title: null }) { ${ENTRY} }`),
  mutation('update-category', 'updateCategory(id: 2, data: { name: "Voyages", articles: [1, 2] }) { data { id attributes { name articles(sort: "id") { data { id } } } } }'),
  mutation('update-created-entry', `updateArticle(id: 51, data: { views: 77 }) { data { id attributes { title views } } }`),
];

const localizations = [
  mutation('localization-create', `createArticleLocalization(id: 2, locale: "fr", data: { title: "Les petits conseils 2" }) { data { id attributes { title locale localizations { data { id attributes { locale } } } } } }`),
  mutation('localization-existing-locale', `createArticleLocalization(id: 1, locale: "fr", data: { title: "Déjà là" }) { ${ENTRY} }`),
  mutation('localization-same-locale', `createArticleLocalization(id: 3, locale: "en", data: { title: "Same" }) { ${ENTRY} }`),
  mutation('localization-missing-source', `createArticleLocalization(id: 999, locale: "fr", data: { title: "Orphan" }) { ${ENTRY} }`),
  mutation('localization-without-locale', `createArticleLocalization(id: 6, data: { title: "No locale" }) { ${ENTRY} }`),
];

const deletes = [
  mutation('delete-created', `deleteArticle(id: 51) { ${ENTRY} }`),
  mutation('delete-again', `deleteArticle(id: 51) { ${ENTRY} }`),
  mutation('delete-missing', `deleteArticle(id: 999) { ${ENTRY} }`),
  mutation('delete-with-relations', `deleteArticle(id: 54) { ${FULL} }`),
  mutation('delete-category', 'deleteCategory(id: 12) { data { id attributes { name } } }'),
  { name: 'read-after-delete', kind: 'mutation', auth: 'full-access', query: '{ article(id: 51) { data { id } } categories(filters: { id: { eq: 12 } }) { data { id } } }' },
];

const refusals = [
  mutation('public-create', `createArticle(data: { title: "Public" }) { ${ENTRY} }`, { auth: 'public' }),
  mutation('public-delete', `deleteArticle(id: 1) { ${ENTRY} }`, { auth: 'public' }),
  mutation('restricted-create', `createArticle(data: { title: "Restricted" }) { ${ENTRY} }`, { auth: 'restricted' }),
  mutation('two-fields-serial', `a: createCategory(data: { name: "First" }) { data { id } } b: createCategory(data: { name: "Second" }) { data { id } }`),
  mutation('one-of-two-fails', `a: createCategory(data: { name: "Third" }) { data { id } } b: updateCategory(id: 999, data: { name: "x" }) { data { id } }`),
  mutation('file-info', 'updateFileInfo(id: 2, info: { alternativeText: "New alt", caption: "New caption" }) { data { id attributes { alternativeText caption name } } }'),
  mutation('file-info-missing', 'updateFileInfo(id: 999, info: { name: "x" }) { data { id } }'),
  mutation('login-ok', 'login(input: { identifier: "user01@example.com", password: "Password-1!" }) { jwt user { id username email } }', { auth: 'public' }),
  mutation('login-wrong-password', 'login(input: { identifier: "user01@example.com", password: "nope" }) { jwt }', { auth: 'public' }),
  mutation('register', 'register(input: { username: "newcomer", email: "newcomer@example.com", password: "Password-9!" }) { jwt user { id username email confirmed blocked role { id type } } }', { auth: 'public' }),
  mutation('register-taken', 'register(input: { username: "user02", email: "user02@example.com", password: "Password-9!" }) { jwt }', { auth: 'public' }),
];

// Last: Strapi creates this entry and the package refuses the request (private attributes are in
// no input), so the ids the two give to later creates would differ.
const last = [
  mutation('create-private-attributes', `createArticle(data: { title: "Private", internalNotes: "secret", accessCode: "code-x" }) { data { id attributes { title accessCode } } }`),
];

export const mutationOperations = group('mutations', [...creates, ...updates, ...localizations, ...deletes, ...refusals, ...last]);
