// The single-type cases asked of the reference (record.mjs) and replayed against the plugin
// (single-type-replay.test.ts), in order: each case sees what the earlier ones wrote.
//
// `homepage`: the single type of reference-app/ (= test/fixtures/apps/single-types), from no entry
// at all, in locales en and fr. `article-localizations`: `localizations` given in `data`, on the
// conformance app's articles (small fixture: en articles 1–50, fr localizations 41–50 of some).
const get = (name, path, note) => ({ name, method: 'GET', path, ...(note ? { note } : {}) });
const put = (name, path, data, note) => ({ name, method: 'PUT', path, body: { data }, ...(note ? { note } : {}) });
const post = (name, path, body, note) => ({ name, method: 'POST', path, body, ...(note ? { note } : {}) });
const del = (name, path, note) => ({ name, method: 'DELETE', path, ...(note ? { note } : {}) });

const preview = 'publicationState=preview';
const titles = 'fields[0]=title';
const ALL = `/api/homepage?locale=all&${preview}&${titles}`;

const homepage = [
  post('creates a promo', '/api/promos', { data: { title: 'Spring' } }),
  post('creates another promo', '/api/promos', { data: { title: 'Summer' } }),
  get('answers 404 while there is no entry', '/api/homepage'),
  get('answers locale=all while there is no entry', '/api/homepage?locale=all'),
  del('answers a DELETE while there is no entry', '/api/homepage'),
  post('answers a localization while there is no entry', '/api/homepage/localizations', { locale: 'fr', title: 'Accueil' }),
  put(
    'creates the entry on the first PUT, without its required media',
    '/api/homepage?populate[promos][fields][0]=title&populate[seo]=true',
    { headline: 'Welcome', title: 'Home', secret: 's3cret', promos: [2, 1], seo: { metaTitle: 'Home' } },
    '`cover` is a required media: not checked',
  ),
  put('refuses a PUT in a locale that has no entry while another has one', '/api/homepage?locale=fr', { title: 'Accueil' }),
  put('refuses a PUT in an unknown locale while an entry exists', '/api/homepage?locale=de', { title: 'Hallo' }),
  put('writes a component without its required media', `/api/homepage?${titles}&populate[banner]=true`, { banner: { caption: 'No image' } }),
  put('empties a required media', `/api/homepage?${titles}&populate[cover]=true`, { cover: null }),
  get('answers the entry a filter matches', '/api/homepage?filters[title][$eq]=Home&fields[0]=title'),
  get('answers 404 when the filter does not match', '/api/homepage?filters[title][$eq]=Nope'),
  get('answers the entry _q matches', '/api/homepage?_q=Hom&fields[0]=title'),
  get('answers 404 when _q does not match', '/api/homepage?_q=zzz'),
  get('answers the entry a filter through a relation matches', '/api/homepage?filters[promos][title][$eq]=Spring&fields[0]=title'),
  get('answers 404 when a filter through a relation does not match', '/api/homepage?filters[promos][title][$eq]=Autumn'),
  get('answers 404 when a component filter does not match', '/api/homepage?filters[seo][metaTitle][$eq]=Other'),
  get('ignores sort and pagination', `/api/homepage?${titles}&sort=title:desc&pagination[page]=2&pagination[pageSize]=1`),
  get('ignores offset pagination', `/api/homepage?${titles}&pagination[start]=5&pagination[limit]=1`),
  get('sorts a populated relation', `/api/homepage?${titles}&populate[promos][fields][0]=title&populate[promos][sort]=title:desc`),
  get('refuses a filter on a private attribute', '/api/homepage?filters[secret][$eq]=s3cret'),
  post('creates the fr localization (a draft), giving a non-localized attribute', '/api/homepage/localizations', { locale: 'fr', title: 'Accueil', headline: 'Bienvenue' }),
  post('refuses a second localization in a used locale', '/api/homepage/localizations', { locale: 'fr', title: 'Encore' }),
  post('refuses a localization without locale', '/api/homepage/localizations', { title: 'Sans' }),
  post('refuses a localization wrapped in data', '/api/homepage/localizations', { data: { locale: 'fr', title: 'Enveloppé' } }),
  post('refuses a localization in an unknown locale', '/api/homepage/localizations', { locale: 'de', title: 'Deutsch' }),
  get('reads the en entry: the non-localized attribute came from the new localization', '/api/homepage?fields[0]=headline&fields[1]=updatedAt'),
  get('answers 404 for the fr draft without preview', '/api/homepage?locale=fr'),
  get('reads the fr draft with preview', `/api/homepage?locale=fr&${preview}&populate=*`),
  get('answers every locale live', '/api/homepage?locale=all'),
  get('answers every locale with preview', ALL),
  get('sorts every locale', `${ALL}&sort=title:asc`),
  get('does not paginate every locale', `${ALL}&pagination[page]=2&pagination[pageSize]=1`),
  get('does not paginate every locale with offsets', `${ALL}&pagination[start]=1&pagination[limit]=1&pagination[withCount]=false`),
  get('filters every locale', `${ALL}&filters[title][$eq]=Accueil`),
  get('searches every locale', `${ALL}&_q=Acc`),
  get('answers an empty list when no locale matches', `${ALL}&filters[title][$eq]=None`),
  get('populates every locale', `${ALL}&populate[localizations][fields][0]=locale`),
  get('answers one entry for a list of locales', `/api/homepage?locale[0]=fr&locale[1]=en&${preview}&${titles}`),
  put('publishes the fr draft with a date', `/api/homepage?locale=fr&${titles}&fields[1]=publishedAt`, { title: 'Accueil !', publishedAt: '2024-05-01T10:00:00.000Z' }),
  get('reads the published fr entry', `/api/homepage?locale=fr&${titles}&fields[1]=publishedAt`),
  put('unpublishes the fr entry', '/api/homepage?locale=fr&fields[0]=publishedAt', { publishedAt: null }),
  get('answers 404 for the unpublished fr entry', '/api/homepage?locale=fr'),
  put('ignores localizations on an updating PUT', `/api/homepage?${titles}&populate[localizations][fields][0]=title`, { title: 'Home 2', localizations: [] }),
  del('answers 404 for a DELETE of a draft', '/api/homepage?locale=fr'),
  del('deletes the fr draft with preview, answering the bare entry', `/api/homepage?locale=fr&${preview}&${titles}&populate=*`),
  get('answers 404 for the deleted fr entry', `/api/homepage?locale=fr&${preview}`),
  put('refuses a PUT in the deleted locale while en exists', '/api/homepage?locale=fr', { title: 'Retour' }),
  get('reads the en entry: no localization left', `/api/homepage?${titles}&populate[localizations][fields][0]=title`),
  del('deletes the en entry, answering the bare entry', '/api/homepage?populate[promos]=true&populate[seo]=true'),
  get('answers locale=all with preview when no entry is left', `/api/homepage?locale=all&${preview}`),
  put('creates a draft in data.locale when no entry is left', `/api/homepage?${titles}&fields[1]=locale&fields[2]=publishedAt`, { title: 'Accueil', locale: 'fr', publishedAt: null }),
  put('refuses a second entry in data.locale', `/api/homepage?${titles}`, { title: 'Encore', locale: 'fr' }),
  get('reads the fr draft', `/api/homepage?locale=fr&${preview}&${titles}&fields[1]=locale`),
  put('ignores localizations naming an entry that does not exist on an update', `/api/homepage?locale=fr&${titles}`, { title: 'Accueil 2', localizations: [999] }),
  del('deletes the fr draft', `/api/homepage?locale=fr&${preview}&${titles}`),
  put('refuses a creating PUT whose localizations do not exist', `/api/homepage?${titles}`, { title: 'Linked', localizations: [999] }),
  put('creates an entry with promos and a non-localized component', `/api/homepage?${titles}`, { title: 'Stars', headline: 'Shine', promos: [1, 2], seo: { metaTitle: 'Seo' } }),
  get('populates a relation and everything below it (promos.*)', `/api/homepage?${titles}&populate=promos.*`),
  get('populates a relation and everything below it as a list item (populate[0]=promos.*)', `/api/homepage?${titles}&populate[0]=promos.*`),
  post('creates a localization giving no non-localized attribute', '/api/homepage/localizations', { locale: 'fr', title: 'Étoiles' }),
  get('reads the new localization: which non-localized values it took', `/api/homepage?locale=fr&${preview}&fields[0]=title&fields[1]=headline&populate[seo]=true`),
  put('updates a non-localized attribute populating localizations', `/api/homepage?${titles}&fields[1]=headline&populate[localizations][fields][0]=headline`, { headline: 'Shine more' }),
  get('reads fr after the PUT that populated localizations', `/api/homepage?locale=fr&${preview}&fields[0]=headline`),
  put('updates a non-localized attribute without populating localizations', `/api/homepage?${titles}&fields[1]=headline`, { headline: 'Shine less' }),
  get('reads fr after the PUT that did not populate localizations', `/api/homepage?locale=fr&${preview}&fields[0]=headline`),
  put('updates a non-localized component populating it and localizations', `/api/homepage?${titles}&populate[seo]=true&populate[localizations][populate][seo]=true`, { seo: { metaTitle: 'Seo 2' } }),
  get('reads fr after the PUT of the component', `/api/homepage?locale=fr&${preview}&fields[0]=headline&populate[seo]=true`),
  del('deletes the fr localization', `/api/homepage?locale=fr&${preview}&${titles}`),
  del('deletes the entry with promos', `/api/homepage?${titles}`),
  put('creates in the default locale when ?locale= names an unknown locale', `/api/homepage?locale=de&${titles}&fields[1]=locale`, { title: 'Hallo' }, 'last: we answer it differently (W8)'),
];

const watched = 'fields[0]=title&fields[1]=readingMinutes&fields[2]=locale&fields[3]=updatedAt&populate[localizations][fields][0]=readingMinutes&populate[localizations][fields][1]=locale&populate[localizations][fields][2]=updatedAt';
const article = (id) => `/api/articles/${id}?${preview}&${watched}`;

const articleLocalizations = [
  get('reads the fr article 41 and its group', article(41)),
  post('creates an article listing 41 in localizations, populating them', `/api/articles?${watched}`, { data: { title: 'Linked at birth', readingMinutes: 77, localizations: [41] } }),
  get('reads 41: linked back, non-localized attribute copied', article(41)),
  get('reads article 1, the former group of 41', article(1)),
  post('creates an article listing 42 in localizations, not populating them', '/api/articles?fields[0]=title', { data: { title: 'Linked, no populate', readingMinutes: 66, localizations: [42] } }),
  get('reads 42', article(42)),
  get('reads the article created', article(52)),
  put('ignores localizations on a PUT', `/api/articles/52?${watched}`, { readingMinutes: 55, localizations: [43] }),
  get('reads 43', article(43)),
  post('creates an article listing 44, populating localizations but not selecting readingMinutes', '/api/articles?fields[0]=title&populate[localizations][fields][0]=locale', {
    data: { title: 'Fields without it', readingMinutes: 33, localizations: [44] },
  }),
  get('reads 44: linked back, readingMinutes not copied', article(44)),
  put('updates readingMinutes of 41 populating localizations, its fields not selecting readingMinutes', `/api/articles/41?fields[0]=title&populate[localizations][fields][0]=locale`, { readingMinutes: 91 }),
  get('reads 51, the other locale of 41', article(51)),
  put('updates readingMinutes of 43 without populating localizations', '/api/articles/43?fields[0]=title', { readingMinutes: 92 }),
  get('reads 9, the other locale of 43', article(9)),
  put('updates readingMinutes of 43 populating localizations', '/api/articles/43?populate[localizations][fields][0]=locale', { readingMinutes: 93 }),
  get('reads 9 again', article(9)),
  put('refuses or ignores data.locale on a PUT', '/api/articles/43?fields[0]=title&fields[1]=locale', { locale: 'en', title: 'Locale on a PUT' }),
];

// `member`: a collection type of reference-app/ that is not localized, with required scalars that
// have defaults, a plain `locale` attribute, and required attributes inside its components.
const members = [
  post('creates a member giving none of the required attributes that have defaults', '/api/members', { data: { firstName: 'Ada' } }),
  post('creates a member giving its plain locale attribute', '/api/members', { data: { firstName: 'Bo', locale: 'en' } }),
  get('filters on the plain locale attribute', '/api/members?filters[locale][$eq]=en&fields[0]=firstName&fields[1]=locale'),
  get('reads a list with ?locale= on a type that is not localized', '/api/members?locale=fr&fields[0]=firstName&fields[1]=locale'),
  get('sorts on the plain locale attribute', '/api/members?sort=locale:desc&fields[0]=firstName&fields[1]=locale'),
  put('updates the plain locale attribute', '/api/members/2?fields[0]=firstName&fields[1]=locale', { locale: 'fr' }),
  post('refuses null for a required boolean that has a default', '/api/members', { data: { firstName: 'Null', active: null } }),
  post('refuses null for a required string that has a default', '/api/members', { data: { firstName: 'Null', nickname: null } }),
  post('creates a member whose component lacks its required attributes (a boolean with a default among them)', '/api/members?populate=*', {
    data: { firstName: 'Cy', profile: { headline: 'Only a headline' } },
  }),
  post('creates a member with whole components', '/api/members?populate=*', {
    data: {
      firstName: 'Di',
      profile: { headline: 'Hello', summary: 'About Di' },
      contacts: [{ headline: 'Home', summary: 'At home' }],
      sections: [{ __component: 'parts.profile', headline: 'Zone', summary: 'In the zone' }],
    },
  }),
  put('replaces a component without its id, lacking a required attribute', '/api/members/3?populate=*', { profile: { headline: 'Replaced' } }),
  put('adds a repeatable item without id, lacking a required attribute', '/api/members/3?populate=*', { contacts: [{ headline: 'New contact' }] }),
  put('replaces a zone item, lacking a required attribute', '/api/members/3?populate=*', { sections: [{ __component: 'parts.profile', headline: 'New zone item' }] }),
  put('refuses null for a required attribute of a replaced component', '/api/members/3?populate=*', { profile: { headline: null, summary: 'S' } }),
  put('refuses null for a required scalar on an update', '/api/members/3?populate=*', { nickname: null }),
  get('reads the member back', '/api/members/3?populate=*'),
];

// Reads on the conformance app's articles (small fixture), before any write touched them.
const list = 'fields[0]=title&pagination[pageSize]=3';
const articleQueries = [
  get('ignores an unknown filter operator', `/api/articles?${list}&filters[title][$foo]=x`),
  get('ignores an unknown operator beside a known one', `/api/articles?${list}&filters[title][$foo]=x&filters[id][$lte]=2`),
  get('answers a comma list given to $in', `/api/articles?${list}&filters[id][$in]=1,3`),
  get('answers a comma list given to $in on a text attribute', `/api/articles?${list}&filters[slug][$in]=a,b`),
  get('populates a relation and everything below it (category.*)', '/api/articles?fields[0]=title&filters[id][$eq]=2&populate=category.*'),
  get('populates a relation with a wildcard as a list item', '/api/articles?fields[0]=title&filters[id][$eq]=2&populate[0]=category.*'),
  get('populates a relation with a wildcard beside another', '/api/articles?fields[0]=title&filters[id][$eq]=2&populate=category.*,author'),
  get('populates a component and everything below it (seo.*)', '/api/articles?fields[0]=title&filters[id][$eq]=1&populate=seo.*'),
  get('populates a relation whose target has a parent (category.*)', '/api/articles?fields[0]=title&filters[id][$eq]=11&populate=category.*'),
  get('populates with a wildcard one level further down', '/api/articles?fields[0]=title&filters[id][$eq]=11&populate=category.parent.*'),
  get('populates a relation with a wildcard on findOne', '/api/articles/2?fields[0]=title&populate=category.*'),
];

export const groups = [
  { group: 'homepage', fixture: 'test/fixtures/apps/single-types, no entry, locales en and fr', cases: homepage },
  { group: 'members', fixture: 'test/fixtures/apps/single-types, no entry', cases: members },
  { group: 'article-queries', fixture: 'conformance/db/strapi-small.db', cases: articleQueries },
  { group: 'article-localizations', fixture: 'conformance/db/strapi-small.db', cases: articleLocalizations },
];
