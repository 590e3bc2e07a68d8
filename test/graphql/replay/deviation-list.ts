/**
 * The recorded operations answered differently on purpose (replay/deviations.ts says how each is
 * checked), by the rule of docs/deviations.md they follow.
 */
import type { Deviation } from './deviations.js';

type Entries = Record<string, Deviation>;

const each = (names: readonly string[], deviation: Deviation): Entries => Object.fromEntries(names.map((name) => [name, deviation]));
const FORBIDDEN = (count: number) => Array.from({ length: count }, () => 'FORBIDDEN');

/** Refusals worded by the package (D13), and answers that are errors where Strapi's are not, or the reverse. */
export const DEVIATIONS_REFUSED: Entries = {
  ...each(
    [
      'filters/through/relatedRestaurants-forbidden',
      'filters/through/author-role-forbidden',
      'filters/other-types/categories-restaurants-forbidden',
      'filters/other-types/users-role-forbidden',
      'sort/unknown-attribute',
      'sort/private-attribute',
      'sort/forbidden-relation',
      'roots/one-bad-argument',
      'private/accessCode-sort',
      'mutations/create-unknown-locale',
      'mutations/create-missing-category',
    ],
    { reason: 'D13: the words and details of the error are the package\'s (the parameter path, why, what is valid)', messagesOnly: true },
  ),
  ...each(
    [
      'private/accessCode-selected',
      'private/accessCode-in-list',
      'private/accessCode-full-access',
      'filters/private/internalNotes',
      'filters/private/accessCode',
      'filters/other-types/users-password-private',
      'private/user-filter-confirmationToken',
      'private/internalNotes-in-nested-filters',
    ],
    {
      reason: 'G1: private and password attributes are nowhere in the schema, filter inputs included: a request naming one is invalid (Strapi lists them, answers password hashes and refuses them in filters at run time)',
      status: 400,
      codes: ['GRAPHQL_VALIDATION_FAILED'],
    },
  ),
  ...each(['fragments/unknown', 'fragments/cycle'], {
    reason: 'no 500s: an invalid document is a validation error (Strapi\'s depth-limit rule crashes on it first)',
    status: 400,
    codes: ['GRAPHQL_VALIDATION_FAILED'],
  }),
  'relations/to-many-mixed-pagination': {
    reason: 'G6: an argument of a nested field that cannot be read fails its root field once (Strapi: the relation null and one error per parent entry)',
    status: 200,
    codes: ['STRAPI_PAGINATION_ERROR'],
    data: { articles: null },
  },
  'sort/bad-direction': { reason: 'D1: a bad sort direction is BAD_USER_INPUT, not an internal error', status: 200, codes: ['BAD_USER_INPUT'], data: { articles: null } },
  ...each(['entry/no-id-argument', 'variables/missing-optional', 'variables/variables-not-an-object'], {
    reason: 'no 500s: an entry asked without an id is no entry (Strapi runs a query with an undefined binding and answers its SQL in an INTERNAL_SERVER_ERROR)',
    status: 200,
    codes: [],
    data: { article: { data: null } },
  }),
  'roots/me-token': { reason: 'no 500s: `me` with an API token is FORBIDDEN (Strapi: INTERNAL_SERVER_ERROR "Authentication requested")', status: 200, codes: ['FORBIDDEN'], data: { me: null } },
  'media/file-related-morph': {
    reason: 'D12: a media file\'s `related` is not read; null, no error (Strapi: null with an INTERNAL_SERVER_ERROR)',
    status: 200,
    codes: [],
    patch: () => undefined,
  },
};

/** Answers whose data differ: drafts, preview, exact numbers, operators Strapi lists but fails on, rules Strapi skips or adds, limits. */
export const DEVIATIONS_DATA: Entries = {
  'access/role-permissions-full-access': {
    reason: 'G8: a role\'s permissions are those permissions.yaml gives it, numbered by the action\'s place among every action of the app (Strapi: its rows of up_permissions)',
    status: 200,
    codes: [],
    data: {
      usersPermissionsRole: {
        data: {
          id: '2',
          attributes: {
            permissions: {
              data: [
                { id: '1', attributes: { action: 'api::article.article.find' } },
                { id: '2', attributes: { action: 'api::article.article.findOne' } },
                { id: '7', attributes: { action: 'api::category.category.find' } },
              ],
            },
          },
        },
      },
    },
  },
  ...each(['publication/preview-public', 'publication/preview-restricted-token', 'localizations/preview-public'], {
    reason: 'D7: PREVIEW needs the preview permission',
    status: 200,
    codes: ['FORBIDDEN'],
    data: { articles: null },
  }),
  'relations/category-articles-preview-public': { reason: 'D7: PREVIEW needs the preview permission, nested too', status: 200, codes: ['FORBIDDEN'], data: { category: null } },
  ...each(['publication/draft-by-id-public', 'publication/draft-by-id-full-access'], {
    reason: 'D6: an entry by id is LIVE (the field has no publicationState): a draft is no entry',
    status: 200,
    codes: [],
    data: { article: { data: null } },
  }),
  'relations/category-featuredArticle': {
    reason: 'D6: a draft is never a populated relation under LIVE (Fashion\'s featured article 14 is a draft)',
    status: 200,
    codes: [],
    patch: (data) => void (data.categories.data[6].attributes.featuredArticle.data = null),
  },
  'entry/all-scalars': {
    reason: 'D8: a biginteger is exact',
    status: 200,
    codes: [],
    patch: (data) => void (data.article.data.attributes.viewsTotal = '9007199254740993'),
  },
  'filters/title-operator-or': {
    reason: 'D1: `or` in a scalar\'s filter input (the schema lists it) is applied; Strapi answers INTERNAL_SERVER_ERROR',
    status: 200,
    codes: [],
    data: { articles: { data: [{ id: '2' }, { id: '23' }], meta: { pagination: { total: 2 } } } },
  },
  'filters/title-operator-and': {
    reason: 'D1: `and` in a scalar\'s filter input (the schema lists it) is applied; Strapi answers INTERNAL_SERVER_ERROR',
    status: 200,
    codes: [],
    data: { articles: { data: [{ id: '2' }], meta: { pagination: { total: 1 } } } },
  },
  'components/forbidden-relation-in-component': {
    reason: 'G4: a relation in a component is read under its type\'s find rule, as anywhere else: null, no error (Strapi does not check it)',
    status: 200,
    codes: [],
    patch: (data) => data.articles.data.forEach((entry: any) => void (entry.attributes.related.restaurants = null)),
  },
  'access/article-media-restricted-token': {
    reason: 'G4: media are read under the file type\'s find rule: null, no error (Strapi does not check it)',
    status: 200,
    codes: [],
    patch: (data) => void Object.assign(data.article.data.attributes, { headerImage: null, gallery: null }),
  },
  'access/forbidden-media-in-zone-part': {
    reason: 'G4: media in a dynamic zone are read under the file type\'s find rule: null, no error (Strapi does not check it)',
    status: 200,
    codes: [],
    patch: (data) => {
      data.article.data.attributes.blocks[0].files = null;
      data.article.data.attributes.blocks[2].file = null;
    },
  },
  ...each(['relations/three-levels', 'relations/back-and-forth', 'errors/depth-nested-twice', 'errors/depth-nested-4-times'], {
    reason: 'G3: depthLimit is 10 unless set (Strapi sets none)',
    status: 400,
    codes: ['GRAPHQL_VALIDATION_FAILED'],
  }),
  'aliases/data-twice-aliased': { reason: 'G2: `data` once per field', status: 200, codes: ['BAD_USER_INPUT'], data: { articles: null } },
  'mutations/create-scalars': {
    reason: 'D8: a biginteger is exact',
    status: 200,
    codes: [],
    patch: (data) => void (data.createArticle.data.attributes.viewsTotal = '9007199254740995'),
  },
  'mutations/create-private-attributes': {
    reason: 'G1: private and password attributes are in no input: the request is invalid (Strapi writes them, and answers the password\'s hash)',
    status: 400,
    codes: ['GRAPHQL_VALIDATION_FAILED', 'GRAPHQL_VALIDATION_FAILED', 'GRAPHQL_VALIDATION_FAILED'],
  },
};
