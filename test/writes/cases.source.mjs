// The write cases recorded from the reference by record.mjs, sent IN THIS ORDER to a fresh copy of
// the small fixture (categories 1–12, restaurants 1–10, articles 1–50 with fr localizations 41–50,
// users 1–8, files 1–16: images 1–14, PDFs 15–16). Ids assigned by earlier cases are therefore the
// same on every run; a case that needs one names it through `save` and reads it from `saved`.
//
// A case: { name, method, path, body | rawBody, padding?, headers?, token?: 'none', save?, readBack?, note? }
// padding: { path, length } puts a string of `length` "x" at `path` of the body when it is sent (a
// body too large to keep in the recording).
// path/body/rawBody/readBack may be functions of `saved` ({ [save]: { id, response, readBack } }).
// readBack: a path, a function, or false; by default a successful POST/PUT is read back by id with
// the type's populate below, a failed PUT too (to show nothing changed), and a DELETE by its path.

const articleReadBack = [
  // The reference's findOne returns drafts; the plugin needs preview for them (deviation D6).
  'publicationState=preview',
  'populate[category][fields][0]=name',
  'populate[categories][fields][0]=name',
  'populate[featuredIn][fields][0]=name',
  'populate[author][fields][0]=username',
  'populate[relatedRestaurants][fields][0]=name',
  'populate[headerImage][fields][0]=name',
  'populate[gallery][fields][0]=name',
  'populate[seo][populate][metaImage][fields][0]=name',
  'populate[seo][populate][metaSocial][populate][image][fields][0]=name',
  'populate[links]=true',
  'populate[related][populate][category][fields][0]=name',
  'populate[related][populate][restaurants][fields][0]=name',
  'populate[blocks][populate]=*',
  'populate[localizations][fields][0]=title',
  'populate[localizations][fields][1]=locale',
].join('&');

const categoryReadBack = [
  'publicationState=preview',
  'populate[icon][fields][0]=name',
  'populate[articles][fields][0]=title',
  'populate[relatedArticles][fields][0]=title',
  'populate[featuredArticle][fields][0]=title',
  'populate[restaurants][fields][0]=name',
  'populate[parent][fields][0]=name',
  'populate[children][fields][0]=name',
].join('&');

const restaurantReadBack = [
  'populate[cover][fields][0]=name',
  'populate[images][fields][0]=name',
  'populate[address]=true',
  'populate[openingHours]=true',
  'populate[categories][fields][0]=name',
].join('&');

export const readBackQuery = { articles: articleReadBack, categories: categoryReadBack, restaurants: restaurantReadBack };

const post = (name, path, body, extra = {}) => ({ name, method: 'POST', path, body, ...extra });
const put = (name, path, body, extra = {}) => ({ name, method: 'PUT', path, body, ...extra });
const del = (name, path, extra = {}) => ({ name, method: 'DELETE', path, ...extra });
const get = (name, path, extra = {}) => ({ name, method: 'GET', path, readBack: false, ...extra });
const raw = (name, method, path, rawBody, extra = {}) => ({ name, method, path, rawBody, ...extra });

/** The id of a saved entry, and of the n-th item of one of its read-back components or zones. */
const idOf = (save) => (saved) => saved[save].id;
const itemIds = (saved, save, attribute) => saved[save].readBack.data.attributes[attribute].map((item) => item.id);
const at = (save, rest = '', plural = 'articles') => (saved) => `/api/${plural}/${saved[save].id}${rest}`;

const seoComponent = {
  metaTitle: 'A title for search',
  metaDescription: 'What the page is about',
  keywords: 'one, two',
  canonicalURL: 'https://example.com/a',
  preventIndexing: true,
  structuredData: { '@type': 'Article', depth: { level: 2 } },
  metaImage: 2,
  metaSocial: [
    { socialNetwork: 'Facebook', title: 'On Facebook', description: 'Shared', image: 3 },
    { socialNetwork: 'Twitter', title: 'On Twitter' },
  ],
};

const threeBlocks = [
  { __component: 'shared.rich-text', body: '# Heading\n\nSome text.' },
  { __component: 'shared.quote', title: 'Said', body: 'A quote', author: 'Someone', category: 4 },
  { __component: 'shared.media', file: 6, caption: 'A picture' },
];

const create = [
  post('creates a category with only its required name', '/api/categories', { data: { name: 'Minimal' } }, { save: 'catMinimal' }),
  post('creates a category with every scalar attribute', '/api/categories', {
    data: { name: 'Gardening', slug: 'gardening', description: 'Plants and soil', sortOrder: 7 },
  }, { save: 'catFull' }),
  post('creates a restaurant with every scalar attribute, a private one included', '/api/restaurants', {
    data: {
      name: 'Chez Test', slug: 'chez-test', description: '**Rich** text', priceRange: 'average',
      email: 'chez@example.com', phone: '+33 1 23 45 67 89', capacity: 42, rating: 4.25, secretRecipe: 'butter',
    },
  }, { save: 'restFull' }),
  post('creates an article with only its title (defaults, locale and publication state)', '/api/articles', {
    data: { title: 'Only a title' },
  }, { save: 'artMinimal' }),
  post('creates an article with every scalar attribute', '/api/articles', {
    data: {
      title: 'Every scalar', slug: 'every-scalar', description: 'Plain text', content: '## Rich\n\ntext',
      kind: 'tutorial', contactEmail: 'writer@example.com', publishDate: '2024-03-15', publishTime: '14:30:00.000',
      scheduledAt: '2024-04-01T09:15:00.000Z', views: 123, viewsTotal: '9007199254740993', rating: 3.5,
      price: 19.99, featured: true, metadata: { tags: ['a', 'b'], nested: { n: 1 } }, readingMinutes: 8,
      internalNotes: 'private note', accessCode: 'open-sesame',
    },
  }, { save: 'artScalars' }),
  post('creates an article whose json metadata is an array', '/api/articles', {
    data: { title: 'Json array', metadata: [1, 'two', { three: 3 }] },
  }),
  post('creates an article whose json metadata is a bare string', '/api/articles', {
    data: { title: 'Json string', metadata: 'just text' },
  }),
  post('creates an article with a biginteger given as a number', '/api/articles', {
    data: { title: 'Big number', viewsTotal: 1234567890123 },
  }),
  post('creates an article with publishedAt null (a draft)', '/api/articles', {
    data: { title: 'Draft by null', publishedAt: null },
  }, { save: 'artDraft' }),
  post('creates an article with publishedAt a past date', '/api/articles', {
    data: { title: 'Published in the past', publishedAt: '2024-02-02T10:00:00.000Z' },
  }),
  post('creates an article with publishedAt a future date', '/api/articles', {
    data: { title: 'Published in the future', publishedAt: '2030-01-01T00:00:00.000Z' },
  }),
  post('creates a category with id in the body', '/api/categories', { data: { id: 500, name: 'With id' } }),
  post('creates a category with createdAt and updatedAt in the body', '/api/categories', {
    data: { name: 'With timestamps', createdAt: '2020-01-01T00:00:00.000Z', updatedAt: '2020-01-02T00:00:00.000Z' },
  }),
  post('creates a category with createdBy and updatedBy in the body', '/api/categories', {
    data: { name: 'With creators', createdBy: 1, updatedBy: 1 },
  }),
  post('creates a category with an unknown attribute', '/api/categories', { data: { name: 'Unknown attr', colour: 'red' } }),
  post('creates a category with a populate query (response shaped by it)', '/api/categories?populate[parent][fields][0]=name', {
    data: { name: 'Shaped', parent: 1 },
  }),
  post('creates a category with a 300-character name (no maxLength on the attribute)', '/api/categories', { data: { name: 'n'.repeat(300) } }),
  post('creates a category with a fields query (response shaped by it)', '/api/categories?fields[0]=name', {
    data: { name: 'Only name back', description: 'not in the response' },
  }),
];

const relations = [
  post('creates an article with a manyToOne relation by id', '/api/articles', { data: { title: 'Rel by id', category: 3 } }, { save: 'relById' }),
  get('reads the related category back: the new article is last in its articles', `/api/categories/3?${categoryReadBack}`),
  post('creates an article with a manyToOne relation by a numeric string', '/api/articles', { data: { title: 'Rel by string id', category: '4' } }),
  post('creates an article with a manyToMany relation as an array of ids', '/api/articles', {
    data: { title: 'Rel by ids', categories: [2, 5, 7] },
  }, { save: 'relIds' }),
  post('creates an article with a manyToMany relation as {connect} of ids', '/api/articles', {
    data: { title: 'Rel connect', categories: { connect: [6, 4] } },
  }),
  post('creates an article with a manyToMany relation as {connect} of {id} objects', '/api/articles', {
    data: { title: 'Rel connect objects', categories: { connect: [{ id: 8 }, { id: 1 }] } },
  }),
  post('creates an article connecting with position start', '/api/articles', {
    data: { title: 'Rel start', categories: { connect: [{ id: 2 }, { id: 3 }, { id: 9, position: { start: true } }] } },
  }),
  post('creates an article connecting with position end', '/api/articles', {
    data: { title: 'Rel end', categories: { connect: [{ id: 2, position: { end: true } }, { id: 3, position: { start: true } }] } },
  }),
  post('creates an article connecting with position before', '/api/articles', {
    data: { title: 'Rel before', categories: { connect: [{ id: 2 }, { id: 3 }, { id: 10, position: { before: 3 } }] } },
  }),
  post('creates an article connecting with position after', '/api/articles', {
    data: { title: 'Rel after', categories: { connect: [{ id: 2 }, { id: 3 }, { id: 11, position: { after: 2 } }] } },
  }),
  post('creates an article connecting before an id that is not in the list', '/api/articles', {
    data: { title: 'Rel before missing', categories: { connect: [{ id: 2, position: { before: 12 } }] } },
  }),
  post('creates an article with a manyToMany relation as {set}', '/api/articles', {
    data: { title: 'Rel set', categories: { set: [8, 3] } },
  }),
  post('creates an article with {disconnect} (nothing to disconnect)', '/api/articles', {
    data: { title: 'Rel disconnect', categories: { disconnect: [1] } },
  }),
  post('creates an article with {set} and {connect} together', '/api/articles', {
    data: { title: 'Rel set and connect', categories: { set: [1], connect: [2] } },
  }),
  post('creates an article with a relation to a category that does not exist', '/api/articles', {
    data: { title: 'Rel missing', category: 999 },
  }),
  post('creates an article connecting a category that does not exist', '/api/articles', {
    data: { title: 'Rel connect missing', categories: { connect: [1, 999] } },
  }),
  post('creates an article connecting the same id twice', '/api/articles', {
    data: { title: 'Rel twice', categories: { connect: [3, 3] } },
  }),
  post('creates an article connecting and disconnecting the same id', '/api/articles', {
    data: { title: 'Rel both ways', categories: { connect: [4], disconnect: [4] } },
  }),
  post('creates an article with a relation given as an object without id', '/api/articles', {
    data: { title: 'Rel bad shape', category: { name: 'Food' } },
  }),
  post('creates an article with the mappedBy side of a oneToOne (featuredIn)', '/api/articles', {
    data: { title: 'Featured in 6', featuredIn: 6 },
  }, { save: 'featured6' }),
  get('reads category 6 back: its featuredArticle is the new article', `/api/categories/6?${categoryReadBack}`),
  post('creates a category featuring an article another category already features', '/api/categories', {
    data: { name: 'Steals feature', featuredArticle: 0 },
  }, {
    body: (saved) => ({ data: { name: 'Steals feature', featuredArticle: saved.featured6.id } }),
  }),
  get('reads category 6 back after another category took its featured article', `/api/categories/6?${categoryReadBack}`),
  post('creates an article with a one-way oneToOne to a user (author)', '/api/articles', {
    data: { title: 'With author', author: 3 },
  }),
  post('creates an article with a one-way oneToMany (relatedRestaurants)', '/api/articles', {
    data: { title: 'With restaurants', relatedRestaurants: [1, 2] },
  }, { save: 'withRestaurants' }),
  post('creates an article taking a restaurant another article already has (oneToMany)', '/api/articles', {
    data: { title: 'Takes restaurant 2', relatedRestaurants: [2, 3] },
  }),
  get('reads the first article back: restaurant 2 moved away', (saved) => `/api/articles/${saved.withRestaurants.id}?${articleReadBack}`),
  post('creates a category with a parent and children (self relations)', '/api/categories', {
    data: { name: 'Parent of two', parent: 2, children: [11, 12] },
  }, { save: 'catTree' }),
  get('reads category 11 back: its parent is the new category', `/api/categories/11?${categoryReadBack}`),
  post('creates a category with the mappedBy side of a oneToMany (articles)', '/api/categories', {
    data: { name: 'Owns articles', articles: [6, 7] },
  }),
  get('reads article 6 back: its category is the new one', `/api/articles/6?${articleReadBack}`),
  post('creates a category with manyToMany restaurants and relatedArticles', '/api/categories', {
    data: { name: 'Many many', restaurants: [4, 5], relatedArticles: [8, 12] },
  }),
];

const components = [
  post('creates an article with a component that nests a repeatable component and media', '/api/articles', {
    data: { title: 'With seo', seo: seoComponent },
  }, { save: 'withSeo' }),
  post('creates an article with a repeatable component of three items', '/api/articles', {
    data: {
      title: 'With links',
      links: [
        { label: 'First', url: 'https://one.example', isExternal: true },
        { label: 'Second', url: '/two' },
        { label: 'Third' },
      ],
    },
  }, { save: 'withLinks' }),
  post('creates an article with a component holding relations', '/api/articles', {
    data: { title: 'With related', related: { heading: 'See also', category: 5, restaurants: [6, 7] } },
  }, { save: 'withRelated' }),
  post('creates an article with a dynamic zone of three components', '/api/articles', {
    data: { title: 'With blocks', blocks: threeBlocks },
  }, { save: 'withBlocks' }),
  post('creates an article with a slider in its zone (multiple media in a component)', '/api/articles', {
    data: { title: 'With slider', blocks: [{ __component: 'shared.slider', title: 'Slides', files: [3, 4, 5] }] },
  }),
  post('creates a restaurant with a component and a repeatable component', '/api/restaurants', {
    data: {
      name: 'With hours',
      address: { street: '1 Main St', city: 'Paris', zip: '75001', country: 'France', geo: { lat: 48.86, lng: 2.35 } },
      openingHours: [
        { day: 'monday', opens: '09:00:00.000', closes: '17:00:00.000' },
        { day: 'sunday', closed: true },
      ],
    },
  }, { save: 'restHours' }),
  post('creates an article with a component missing its required attribute', '/api/articles', {
    data: { title: 'Seo without title', seo: { metaDescription: 'no metaTitle' } },
  }),
  post('creates an article with a component attribute too long', '/api/articles', {
    data: { title: 'Seo title too long', seo: { metaTitle: 'x'.repeat(61) } },
  }),
  post('creates an article with a nested repeatable item out of its enumeration', '/api/articles', {
    data: { title: 'Bad social', seo: { metaTitle: 'ok', metaSocial: [{ socialNetwork: 'Myspace', title: 'old' }] } },
  }),
  post('creates an article with a repeatable item missing its required attribute', '/api/articles', {
    data: { title: 'Link without label', links: [{ label: 'ok' }, { url: '/no-label' }] },
  }),
  post('creates an article with a repeatable component that is not an array', '/api/articles', {
    data: { title: 'Links object', links: { label: 'one' } },
  }),
  post('creates an article with a single component given as an array', '/api/articles', {
    data: { title: 'Seo array', seo: [{ metaTitle: 'one' }] },
  }),
  post('creates an article with a zone item without __component', '/api/articles', {
    data: { title: 'Zone no type', blocks: [{ body: 'text' }] },
  }),
  post('creates an article with a zone item of a component not in the zone', '/api/articles', {
    data: { title: 'Zone wrong type', blocks: [{ __component: 'shared.link', label: 'x' }] },
  }),
  post('creates an article with a zone item of an unknown component', '/api/articles', {
    data: { title: 'Zone unknown type', blocks: [{ __component: 'shared.nothing', body: 'x' }] },
  }),
  post('creates an article with a zone item carrying an unknown attribute', '/api/articles', {
    data: { title: 'Zone unknown attr', blocks: [{ __component: 'shared.rich-text', body: 'x', colour: 'red' }] },
  }),
  post('creates an article with a component item id belonging to another entry', '/api/articles', {
    data: { title: 'Foreign link id', links: [{ id: 1, label: 'Taken over' }] },
  }),
  post('creates an article with a zone item whose relation target does not exist', '/api/articles', {
    data: { title: 'Zone missing target', blocks: [{ __component: 'shared.quote', title: 'q', category: 999 }] },
  }),
  post('creates an article with a zone item whose media does not exist', '/api/articles', {
    data: { title: 'Zone missing file', blocks: [{ __component: 'shared.media', file: 999 }] },
  }),
  post('creates an article with a zone that is not an array', '/api/articles', {
    data: { title: 'Zone object', blocks: { __component: 'shared.rich-text', body: 'x' } },
  }),
];

const media = [
  post('creates an article with single and multiple media by file id', '/api/articles', {
    data: { title: 'With media', headerImage: 1, gallery: [2, 3, 15] },
  }, { save: 'withMedia' }),
  post('creates a category with an icon by file id', '/api/categories', { data: { name: 'With icon', icon: 5 } }),
  post('creates a restaurant with a cover and images', '/api/restaurants', { data: { name: 'Pictured', cover: 7, images: [8, 9] } }),
  post('creates an article with a media file that does not exist', '/api/articles', { data: { title: 'Missing file', headerImage: 999 } }),
  post('creates an article with media given as {id} objects', '/api/articles', {
    data: { title: 'Media objects', headerImage: { id: 1 }, gallery: [{ id: 2 }] },
  }),
  post('creates an article with multiple media given as a single id', '/api/articles', { data: { title: 'Gallery scalar', gallery: 4 } }),
  post('creates a category whose images-only icon is a PDF', '/api/categories', { data: { name: 'Pdf icon', icon: 15 } }),
];

const locales = [
  post('creates an article in fr through ?locale=fr', '/api/articles?locale=fr', { data: { title: 'Par le paramètre' } }),
  post('creates an article in fr through data.locale', '/api/articles', { data: { title: 'Par les données', locale: 'fr' } }, { save: 'frByData' }),
  post('creates an article with ?locale=fr and data.locale en', '/api/articles?locale=fr', { data: { title: 'Both locales', locale: 'en' } }),
  post('creates an article in a locale the app does not have', '/api/articles', { data: { title: 'Deutsch', locale: 'de' } }),
  post('creates an article in a locale the app does not have through ?locale=', '/api/articles?locale=de', { data: { title: 'Deutsch param' } }),
  post('creates a category (not localized) with data.locale', '/api/categories', { data: { name: 'Localized?', locale: 'fr' } }),
  post('creates an article with localizations in the body', '/api/articles', { data: { title: 'Linked at birth', localizations: [41] } }),
];

const validation = [
  post('refuses an article without its required title', '/api/articles', { data: { description: 'no title' } }),
  post('refuses an article whose required title is null', '/api/articles', { data: { title: null } }),
  post('creates or refuses an article whose required title is empty', '/api/articles', { data: { title: '' } }),
  post('refuses a category without its required name', '/api/categories', { data: { description: 'nameless' } }),
  post('refuses an integer given as a non-numeric string', '/api/articles', { data: { title: 'Bad int', views: 'many' } }),
  post('accepts or refuses an integer given as a numeric string', '/api/articles', { data: { title: 'String int', views: '12' } }),
  post('refuses an integer given as a fraction', '/api/articles', { data: { title: 'Fraction int', views: 1.5 } }),
  post('refuses an integer beyond 32 bits', '/api/articles', { data: { title: 'Huge int', views: 3000000000 } }),
  post('refuses a boolean given as a word', '/api/articles', { data: { title: 'Bad bool', featured: 'yes' } }),
  post('refuses a float given as a word', '/api/articles', { data: { title: 'Bad float', rating: 'high' } }),
  post('refuses a decimal given as a word', '/api/restaurants', { data: { name: 'Bad decimal', rating: 'good' } }),
  post('refuses a date that is not a date', '/api/articles', { data: { title: 'Bad date', publishDate: 'next tuesday' } }),
  post('refuses a time that is not a time', '/api/articles', { data: { title: 'Bad time', publishTime: '25:99' } }),
  post('refuses a datetime that is not a datetime', '/api/articles', { data: { title: 'Bad datetime', scheduledAt: 'yesterday' } }),
  post('accepts or refuses a float given as a numeric string', '/api/articles', { data: { title: 'String float', rating: '3.25' } }),
  post('accepts or refuses a boolean given as the string "true"', '/api/articles', { data: { title: 'String bool', featured: 'true' } }),
  post('accepts or refuses a boolean given as 1', '/api/articles', { data: { title: 'Numeric bool', featured: 1 } }),
  post('accepts or refuses a datetime given as epoch milliseconds', '/api/articles', { data: { title: 'Epoch datetime', scheduledAt: 1717243200000 } }),
  post('accepts or refuses a datetime with an offset', '/api/articles', { data: { title: 'Offset datetime', scheduledAt: '2024-06-01T14:00:00+02:00' } }),
  post('accepts or refuses a date given as a full datetime', '/api/articles', { data: { title: 'Datetime as date', publishDate: '2024-03-15T10:00:00.000Z' } }),
  post('accepts or refuses a time without seconds', '/api/articles', { data: { title: 'Short time', publishTime: '14:30' } }),
  post('accepts or refuses a calendar date that does not exist', '/api/articles', { data: { title: 'February 30', publishDate: '2024-02-30' } }),
  post('accepts an enumeration set to null', '/api/articles', { data: { title: 'Null kind', kind: null } }),
  post('accepts or refuses an empty email', '/api/articles', { data: { title: 'Empty email', contactEmail: '' } }),
  post('accepts or refuses an empty uid', '/api/categories', { data: { name: 'Empty slug', slug: '' } }),
  post('accepts or refuses a second empty uid', '/api/categories', { data: { name: 'Empty slug again', slug: '' } }),
  post('refuses a biginteger that is not a number', '/api/articles', { data: { title: 'Bad bigint', viewsTotal: 'lots' } }),
  post('refuses a string attribute given a number', '/api/articles', { data: { title: 12345 } }),
  post('refuses a string attribute given an object', '/api/categories', { data: { name: { en: 'Food' } } }),
  post('refuses an enumeration value out of the list', '/api/articles', { data: { title: 'Bad kind', kind: 'opinion' } }),
  post('refuses an enumeration value out of the list (restaurant)', '/api/restaurants', { data: { name: 'Bad range', priceRange: 'free' } }),
  post('refuses a bad email', '/api/articles', { data: { title: 'Bad email', contactEmail: 'not-an-email' } }),
  post('refuses a bad email (restaurant)', '/api/restaurants', { data: { name: 'Bad email', email: 'a@b' } }),
  post('refuses a uid that is already taken (category slug)', '/api/categories', { data: { name: 'Food again', slug: 'food' } }),
  post('refuses a uid that is already taken (article slug, same locale)', '/api/articles', { data: { title: 'Dup slug', slug: 'the-honest-tips-1' } }),
  post('accepts or refuses a uid taken in another locale', '/api/articles', {
    data: { title: 'Slug of fr', slug: 'the-quick-interview-1-fr', locale: 'en' },
  }),
  post('refuses a uid with characters outside its pattern', '/api/categories', { data: { name: 'Bad slug', slug: 'Not A Slug!' } }),
  post('refuses a password attribute given a number', '/api/articles', { data: { title: 'Bad password', accessCode: 1234 } }),
  post('lists every problem of a body with several', '/api/articles', {
    data: { kind: 'opinion', contactEmail: 'nope', views: 'many', seo: { metaTitle: 'y'.repeat(70) } },
  }),
  post('refuses publishedAt that is not a date', '/api/articles', { data: { title: 'Bad publishedAt', publishedAt: 'soon' } }),
];

const bodies = [
  raw('refuses a body that is not JSON', 'POST', '/api/categories', '{"data": {"name": '),
  raw('answers an empty body', 'POST', '/api/categories', ''),
  post('refuses a body without data', '/api/categories', { name: 'No envelope' }),
  post('refuses data that is an array', '/api/categories', { data: [{ name: 'In an array' }] }),
  post('refuses data that is a string', '/api/categories', { data: 'Food' }),
  post('refuses data that is null', '/api/categories', { data: null }),
  post('refuses a body that is a JSON array', '/api/categories', [{ data: { name: 'x' } }]),
  post('refuses an empty data object (required name missing)', '/api/categories', { data: {} }),
  raw('answers a JSON body sent as text/plain', 'POST', '/api/categories', '{"data":{"name":"As text"}}', {
    headers: { 'Content-Type': 'text/plain' },
  }),
  raw('answers a form-encoded body', 'POST', '/api/categories', 'data[name]=Form', {
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
  }),
  put('refuses a PUT without data', '/api/categories/1', { name: 'No envelope' }),
  raw('refuses a PUT whose body is not JSON', 'PUT', '/api/categories/1', 'not json'),
];

const update = [
  put('updates one attribute and keeps the others', at('catFull', '', 'categories'), { data: { description: 'Only this changed' } }),
  put('updates an article title (updatedAt moves, publishedAt stays)', at('artScalars'), { data: { title: 'Every scalar, renamed' } }),
  put('updates with an empty data object', at('catMinimal', '', 'categories'), { data: {} }),
  put('answers 404 for a PUT on an id that does not exist', '/api/categories/9999', { data: { name: 'Ghost' } }),
  put('answers a PUT whose body names another id', at('catMinimal', '', 'categories'), { data: { id: 1, name: 'Id in body' } }),
  put('unpublishes an article with publishedAt null', at('artScalars'), { data: { publishedAt: null } }),
  put('publishes a draft with a publishedAt date', at('artDraft'), { data: { publishedAt: '2024-05-05T05:05:05.000Z' } }),
  put('updates a draft without publishedAt (stays a draft?)', '/api/articles/4', { data: { title: 'Draft 4 renamed' } }),
  put('refuses an invalid update and changes nothing', '/api/articles/2', { data: { kind: 'opinion', title: 'Should not stick' } }),
  put('refuses an update to a required attribute set to null', '/api/articles/2', { data: { title: null } }),
  put('refuses an update to a uid already taken', at('catFull', '', 'categories'), { data: { slug: 'travel' } }),
  put('updates a uid to the value it already has', '/api/categories/2', { data: { slug: 'travel' } }),
  put('answers an update changing the locale', at('artMinimal'), { data: { locale: 'fr' } }),
  put('updates createdAt in the body (kept or ignored)', at('catMinimal', '', 'categories'), { data: { createdAt: '2020-01-01T00:00:00.000Z' } }),
  put('replaces a manyToMany relation with an array of ids', at('relIds'), { data: { categories: [7, 2] } }),
  put('reorders with connect position start', at('relIds'), { data: { categories: { connect: [{ id: 2, position: { start: true } }] } } }),
  put('reorders with connect position end', at('relIds'), { data: { categories: { connect: [{ id: 2, position: { end: true } }] } } }),
  put('adds with connect position before', at('relIds'), { data: { categories: { connect: [{ id: 9, position: { before: 2 } }] } } }),
  put('adds with connect position after', at('relIds'), { data: { categories: { connect: [{ id: 10, position: { after: 7 } }] } } }),
  put('moves an existing link with connect position after', at('relIds'), { data: { categories: { connect: [{ id: 7, position: { after: 2 } }] } } }),
  put('connects without a position (appended)', at('relIds'), { data: { categories: { connect: [11] } } }),
  put('disconnects one link', at('relIds'), { data: { categories: { disconnect: [9] } } }),
  put('disconnects and connects in one update', at('relIds'), { data: { categories: { disconnect: [10], connect: [{ id: 12, position: { start: true } }] } } }),
  put('connects a position relative to a disconnected id', at('relIds'), { data: { categories: { connect: [{ id: 1, position: { before: 10 } }] } } }),
  put('sets the whole list with {set}', at('relIds'), { data: { categories: { set: [5, 6] } } }),
  put('empties a list with an empty array', at('relIds'), { data: { categories: [] } }),
  put('clears a manyToOne with null', at('relById'), { data: { category: null } }),
  put('changes a manyToOne with {connect}', at('relById'), { data: { category: { connect: [4] } } }),
  put('changes a manyToOne with {set}', at('relById'), { data: { category: { set: [5] } } }),
  put('disconnects a manyToOne with {disconnect}', at('relById'), { data: { category: { disconnect: [5] } } }),
  put('updates a repeatable component: item with id kept and changed, without id created, omitted deleted', at('withLinks'), {
    data: { links: [] },
  }, {
    body: (saved) => {
      const [first, , third] = itemIds(saved, 'withLinks', 'links');
      return { data: { links: [{ id: third, label: 'Third, now first' }, { label: 'Brand new' }, { id: first, label: 'First, now last', url: '/changed' }] } };
    },
    save: 'withLinksUpdated',
  }),
  put('refuses a repeatable component item whose id belongs to another entry', at('withLinks'), {
    data: { links: [{ id: 1, label: 'Not mine' }] },
  }),
  put('empties a repeatable component with an empty array', at('withLinks'), { data: { links: [] } }),
  put('updates a single component through its id', at('withSeo'), { data: {} }, {
    body: (saved) => ({ data: { seo: { id: saved.withSeo.readBack.data.attributes.seo.id, metaTitle: 'Updated in place' } } }),
  }),
  put('replaces a single component given without id', at('withSeo'), { data: { seo: { metaTitle: 'A new component' } } }),
  put('removes a single component with null', at('withSeo'), { data: { seo: null } }),
  put('replaces a dynamic zone', at('withBlocks'), {
    data: { blocks: [{ __component: 'shared.quote', title: 'Only quote', category: 8 }, { __component: 'shared.rich-text', body: 'Second' }] },
  }, { save: 'withBlocksReplaced' }),
  put('updates a zone item through its id and component', at('withBlocks'), { data: {} }, {
    body: (saved) => {
      const [quote, text] = saved.withBlocksReplaced.readBack.data.attributes.blocks;
      return { data: { blocks: [{ id: text.id, __component: 'shared.rich-text', body: 'Text first, edited' }, { id: quote.id, __component: 'shared.quote', title: 'Quote second' }] } };
    },
  }),
  put('empties a dynamic zone', at('withBlocks'), { data: { blocks: [] } }),
  put('updates media: a new header image, the gallery reordered', at('withMedia'), { data: { headerImage: 4, gallery: [15, 2] } }),
  put('clears media with null', at('withMedia'), { data: { headerImage: null, gallery: null } }),
  put('updates the restaurant component and repeatable component', at('restHours', '', 'restaurants'), { data: {} }, {
    body: (saved) => {
      const [monday] = itemIds(saved, 'restHours', 'openingHours');
      return { data: { address: { city: 'Lyon' }, openingHours: [{ id: monday, day: 'tuesday' }] } };
    },
  }),
  put('updates the relations inside a component through the component id', at('withRelated'), { data: {} }, {
    body: (saved) => ({
      data: { related: { id: saved.withRelated.readBack.data.attributes.related.id, category: 9, restaurants: { connect: [{ id: 8, position: { start: true } }] } } },
    }),
  }),
  put('updates a non-localized attribute of a localized entry', '/api/articles/5', { data: { readingMinutes: 99 } }),
  get('reads the fr localization back: the non-localized attribute followed', `/api/articles/42?${articleReadBack}`),
  put('updates a localized attribute of a localized entry (the other locale keeps its own)', '/api/articles/5', { data: { title: 'Recipe 5, renamed' } }),
  get('reads the fr localization back: its title is its own', '/api/articles/42?fields[0]=title&fields[1]=readingMinutes'),
  put('reorders the inverse side of a manyToOne (category.articles) with position start', '/api/categories/3', {
    data: { articles: { connect: [{ id: 31, position: { start: true } }] } },
  }),
  get('reads article 31 back: still in category 3', '/api/articles/31?fields[0]=title&populate[category][fields][0]=name'),
  put('moves an article to another category from the category side', '/api/categories/4', {
    data: { articles: { connect: [{ id: 26, position: { after: 12 } }] } },
  }),
  get('reads category 3 back: article 26 left it', `/api/categories/3?${categoryReadBack}`),
  put('updates with an unknown attribute', '/api/categories/5', { data: { colour: 'blue', description: 'Known changed' } }),
  put('updates a password attribute', at('artScalars'), { data: { accessCode: 'new-secret' } }),
  put('answers a PUT with the response shaped by populate', (saved) => `/api/categories/${saved.catTree.id}?populate[children][fields][0]=name`, {
    data: { children: { disconnect: [12] } },
  }),
  put('answers a PUT on the singular route of a collection type', '/api/category', { data: { name: 'Single?' } }),
  put('answers a PUT on the collection route without an id', '/api/categories', { data: { name: 'No id' } }),
  put('answers a PUT on an id that is not a number', '/api/categories/abc', { data: { name: 'Not a number' } }),
];

const localizations = [
  post('creates a fr localization of an en article', at('withMedia', '/localizations'), { locale: 'fr', title: 'Avec médias' }, { save: 'frLocalization' }),
  get('reads the en article back with its new localization', (saved) => `/api/articles/${saved.withMedia.id}?${articleReadBack}`),
  post('refuses a second localization in the same locale', at('withMedia', '/localizations'), { locale: 'fr', title: 'Encore' }),
  post('refuses a localization in the locale of the entry itself', at('withMedia', '/localizations'), { locale: 'en', title: 'Same' }),
  post('refuses a localization without locale', '/api/articles/2/localizations', { title: 'No locale' }),
  post('refuses a localization in a locale the app does not have', '/api/articles/2/localizations', { locale: 'de', title: 'Deutsch' }),
  post('answers a localization of an entry that does not exist', '/api/articles/9999/localizations', { locale: 'fr', title: 'Ghost' }),
  post('creates a localization with its own components and relations', '/api/articles/3/localizations', {
    locale: 'fr', title: 'Le guide', category: 2, links: [{ label: 'Lien' }], blocks: [{ __component: 'shared.rich-text', body: 'Texte' }],
  }),
  post('creates a localization wrapped in data', '/api/articles/6/localizations', { data: { locale: 'fr', title: 'Enveloppé' } }),
  post('answers a localization of a type that is not localized', '/api/categories/1/localizations', { locale: 'fr', name: 'Nourriture' }),
  post('creates an en localization of a fr entry', at('frByData', '/localizations'), { locale: 'en', title: 'By data, in English' }),
];

const deletes = [
  del('deletes an article with components, a zone, media and relations', at('withLinks')),
  del('deletes an article that has a localization', at('withMedia')),
  get('reads the fr localization back: its link to the deleted entry is gone', (saved) => `/api/articles/${saved.frLocalization.id}?${articleReadBack}`),
  del('deletes an article with a zone and a category', '/api/articles/1'),
  get('reads category 12 back: the deleted article is gone from its related articles', `/api/categories/12?${categoryReadBack}`),
  get('reads article 41 back: the localization link is gone', `/api/articles/41?${articleReadBack}`),
  del('deletes a category that has articles, a parent and children', at('catTree', '', 'categories')),
  get('reads category 11 back: its parent is gone', `/api/categories/11?${categoryReadBack}`),
  del('deletes a restaurant with a component and a repeatable component', at('restHours', '', 'restaurants')),
  del('deletes with a populate query (the response shows the deleted relations)', '/api/categories/2?populate[articles][fields][0]=title'),
  del('answers 404 for a DELETE on an id that does not exist', '/api/articles/9999'),
  del('answers 404 for a DELETE on an id already deleted', '/api/articles/1'),
  del('answers a DELETE on the singular route of a collection type', '/api/category'),
  del('answers a DELETE on the collection route without an id', '/api/categories'),
  del('deletes a draft article', '/api/articles/14'),
];

const permissions = [
  post('refuses a create without a token (public role)', '/api/categories', { data: { name: 'Public' } }, { token: 'none' }),
  put('refuses an update without a token (public role)', '/api/categories/3', { data: { name: 'Public' } }, { token: 'none' }),
  del('refuses a delete without a token (public role)', '/api/categories/3', { token: 'none', readBack: '/api/categories/3' }),
  post('refuses a localization without a token (public role)', '/api/articles/2/localizations', { locale: 'fr', title: 'Public' }, { token: 'none' }),
  post('refuses a create on a type the public role cannot even read', '/api/restaurants', { data: { name: 'Public' } }, { token: 'none' }),
  post('refuses an invalid body without a token: permission before validation', '/api/categories', { data: 'bad' }, { token: 'none' }),
  post('answers a create with a token that does not exist', '/api/categories', { data: { name: 'Bad token' } }, {
    token: 'none', headers: { Authorization: 'Bearer not-a-token' },
  }),
  get('reads without a token (the public role may find articles)', '/api/categories/3?fields[0]=name', { token: 'none' }),
];

// One case (or more) for each write rule of the README that no earlier case pinned (issue #20);
// test/writes/RULES.md maps every rule to its cases. Appended last, so the ids earlier cases were
// given do not move.
const restricted = { token: 'none', headers: { Authorization: 'Bearer restricted-token' } };

const rules = [
  post('accepts or refuses a time with seconds and no fraction', '/api/articles', { data: { title: 'Time without fraction', publishTime: '14:30:15' } }),
  post('accepts or refuses a datetime without a zone', '/api/articles', { data: { title: 'Datetime without zone', scheduledAt: '2024-06-01T14:00:00' } }),
  post('accepts or refuses a date in year 0', '/api/articles', { data: { title: 'Year zero', publishDate: '0000-06-15' } }),
  post('accepts or refuses a boolean given as the string "false"', '/api/articles', { data: { title: 'String false', featured: 'false' } }),
  post('accepts or refuses a boolean given as 0', '/api/articles', { data: { title: 'Numeric false', featured: 0 } }),
  put('updates a decimal and an integer given as numeric strings', at('restFull', '', 'restaurants'), { data: { capacity: '12', rating: '4.5' } }),
  post('accepts or refuses a NUL character in a text value', '/api/categories', { data: { name: 'Nul inside', description: 'before\u0000after' } }),
  post('creates an article with a manyToOne relation given as {id}', '/api/articles', { data: { title: 'Rel as object', category: { id: 3 } } }),
  post('creates an article with a manyToMany relation as an array of {id} objects', '/api/articles', {
    data: { title: 'Rel as objects', categories: [{ id: 5 }, { id: 3 }] },
  }),
  post('creates an article with two categories, to update below', '/api/articles', {
    data: { title: 'Rel to update', categories: [4, 5] },
  }, { save: 'relToUpdate' }),
  put('updates with {set}, {connect} and {disconnect} together: set wins', at('relToUpdate'), {
    data: { categories: { set: [3, 6], connect: [4], disconnect: [6] } },
  }),
  put('disconnects and connects the same linked id: disconnect runs first', at('relToUpdate'), {
    data: { categories: { disconnect: [3], connect: [3] } },
  }),
  post('creates an article taking a user another article already has as author (one-way oneToOne)', '/api/articles', {
    data: { title: 'Shares author 2', author: 2 },
  }),
  get('reads article 9 back: its author stays', '/api/articles/9?publicationState=preview&fields[0]=title&populate[author][fields][0]=username'),
  post('creates an article featured by a category that featured another (oneToOne, mappedBy side)', '/api/articles', {
    data: { title: 'Featured in 8', featuredIn: 8 },
  }),
  get('reads article 16 back: category 8 no longer features it', '/api/articles/16?publicationState=preview&fields[0]=title&populate[featuredIn][fields][0]=name'),
  post('refuses a uid taken by a draft', '/api/articles', { data: { title: 'Slug of a draft', slug: 'the-honest-report-9' } }),
  put('refuses an update to a uid taken in another locale', '/api/articles/2', { data: { slug: 'the-quick-interview-1-fr' } }),
  post('answers a body over 1 MB', '/api/categories', { data: { name: 'Too large' } }, {
    padding: { path: ['data', 'description'], length: 1_100_000 },
    note: 'the body is padded when sent: `padding` puts a string of that many "x" at that path',
  }),
  post('creates with a relation to a type the token may not read', '/api/articles', {
    data: { title: 'Restaurants unseen', relatedRestaurants: [1], category: 3 },
  }, { ...restricted, note: 'restricted-token: create, find and findOne on articles, find on categories' }),
  post('creates with media the token may not read', '/api/articles', {
    data: { title: 'Files unseen', headerImage: 1 },
  }, { ...restricted, note: 'restricted-token: create, find and findOne on articles, find on categories' }),
  post('creates with media the token may not read, of a file that does not exist', '/api/articles', {
    data: { title: 'Files probed', headerImage: 999 },
  }, { ...restricted, note: 'restricted-token: create, find and findOne on articles, find on categories' }),
];

export const groups = [
  { group: 'create', cases: create },
  { group: 'relations', cases: relations },
  { group: 'components', cases: components },
  { group: 'media', cases: media },
  { group: 'locales', cases: locales },
  { group: 'validation', cases: validation },
  { group: 'bodies', cases: bodies },
  { group: 'update', cases: update },
  { group: 'localizations', cases: localizations },
  { group: 'delete', cases: deletes },
  { group: 'permissions', cases: permissions },
  { group: 'rules', cases: rules },
];
