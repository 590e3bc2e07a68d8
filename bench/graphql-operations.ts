/**
 * The three operations of the GraphQL benchmark (issue 35's table), each with the REST request
 * that reads the same data: the public role's view of the large fixture, so that both Strapi and
 * the package answer them with the kit's permissions (relations to types the public may not read,
 * such as restaurants, are left out).
 */

export interface BenchOperation {
  readonly id: string;
  readonly title: string;
  readonly graphql: string;
  /** The same entries, attributes and relations through REST (`/api/…`). */
  readonly rest: string;
}

const WIDE_SELECTION = `id attributes {
  title slug description kind publishDate views rating featured metadata locale publishedAt
  category { data { id attributes { name slug } } }
  categories { data { id attributes { name } } }
  author { data { id attributes { username } } }
  headerImage { data { id attributes { name url width height formats } } }
  gallery { data { id attributes { name url mime } } }
  seo { metaTitle metaDescription metaImage { data { id attributes { url } } } metaSocial { socialNetwork title image { data { id attributes { url } } } } }
  links { label url isExternal }
  related { heading category { data { id attributes { name } } } }
  blocks { __typename
    ... on ComponentSharedRichText { body }
    ... on ComponentSharedQuote { title body author category { data { id attributes { name } } } }
    ... on ComponentSharedMedia { caption file { data { id attributes { url } } } }
    ... on ComponentSharedSlider { title files { data { id attributes { url } } } } } }`;

const WIDE_REST = [
  ...['title', 'slug', 'description', 'kind', 'publishDate', 'views', 'rating', 'featured', 'metadata', 'locale', 'publishedAt'].map((name, index) => `fields[${index}]=${name}`),
  'populate[category][fields][0]=name',
  'populate[category][fields][1]=slug',
  'populate[categories][fields][0]=name',
  'populate[author][fields][0]=username',
  ...['name', 'url', 'width', 'height', 'formats'].map((name, index) => `populate[headerImage][fields][${index}]=${name}`),
  ...['name', 'url', 'mime'].map((name, index) => `populate[gallery][fields][${index}]=${name}`),
  'populate[seo][populate][metaImage][fields][0]=url',
  'populate[seo][populate][metaSocial][populate][image][fields][0]=url',
  'populate[links]=true',
  'populate[related][populate][category][fields][0]=name',
  'populate[blocks][on][shared.rich-text][fields][0]=body',
  'populate[blocks][on][shared.quote][populate][category][fields][0]=name',
  'populate[blocks][on][shared.media][populate][file][fields][0]=url',
  'populate[blocks][on][shared.slider][populate][files][fields][0]=url',
].join('&');

export const GRAPHQL_BENCH_OPERATIONS: readonly BenchOperation[] = [
  {
    id: 'g1',
    title: '10 articles with their category and meta',
    graphql: '{ articles(pagination: { pageSize: 10 }) { data { id attributes { title slug category { data { id attributes { name slug } } } } } meta { pagination { total page pageSize pageCount } } } }',
    rest: '/api/articles?pagination[pageSize]=10&fields[0]=title&fields[1]=slug&populate[category][fields][0]=name&populate[category][fields][1]=slug',
  },
  {
    id: 'g2',
    title: '10 articles, a wide selection (relations, components, media)',
    graphql: `{ articles(pagination: { pageSize: 10 }) { data { ${WIDE_SELECTION} } meta { pagination { total } } } }`,
    rest: `/api/articles?pagination[pageSize]=10&${WIDE_REST}`,
  },
  {
    id: 'g3',
    title: '100 articles, the same selection',
    graphql: `{ articles(pagination: { pageSize: 100 }) { data { ${WIDE_SELECTION} } meta { pagination { total } } } }`,
    rest: `/api/articles?pagination[pageSize]=100&${WIDE_REST}`,
  },
];
