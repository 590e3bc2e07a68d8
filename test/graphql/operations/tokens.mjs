// The API tokens the recorded operations send (`auth` of an operation names one; `public` sends
// none). The recorder stores them in the reference's database as Strapi stores them, and writes
// them into recorded/kit.json so that the replay gives the package the same credentials.

/** The reference app's API token salt (its .env). */
export const API_TOKEN_SALT = 'oracle-api-token-salt';

export const TOKENS = [
  // Every action on every type, as Strapi's full-access token.
  { name: 'full-access', key: 'writer-token', type: 'full-access' },
  // A custom token: articles (find, findOne) and the list of categories, nothing else.
  {
    name: 'restricted',
    key: 'restricted-token',
    type: 'custom',
    actions: ['api::article.article.find', 'api::article.article.findOne', 'api::category.category.find'],
  },
];
