/**
 * The components of a demo article: `seo` (single, with a media `metaImage` and a repeatable
 * `metaSocial` whose items carry an image — media inside components, related to the component's
 * uid), `links` (repeatable), `related` (single, with relations inside a component) and the
 * `blocks` dynamic zone (rich text, quotes linked to categories, a media block and a slider).
 */
import { categoryId } from './categories.js';
import type { DemoContext } from './context.js';
import { markdownBody, sentences, slugify, type DemoLocale } from './text.js';
import type { TableModel } from '../storage/table-model.js';
import type { ZoneBlock } from './writer.js';

const QUOTE_AUTHORS = ['M. F. K. Fisher', 'Anthony Bourdain', 'Julia Child', 'Paul Bocuse', 'Elizabeth David', 'Yotam Ottolenghi'];

/** The article as its parts need it. */
export interface ArticleDraft {
  readonly entry: TableModel;
  readonly title: string;
  readonly slug: string;
  readonly locale: DemoLocale;
  readonly category: string;
  readonly headerImage: number;
  readonly draft: boolean;
}

/** `seo`: meta tags, structured data (json, or null for some), a meta image and one or two social cards. */
export async function addSeo(context: DemoContext, article: ArticleDraft): Promise<void> {
  const { writer, random } = context;
  const seo = await writer.addComponent(article.entry, 'seo', {
    meta_title: article.title.slice(0, 60),
    meta_description: sentences(random, article.locale, 1),
    keywords: random.sample(['food', 'travel', 'guide', 'recipe', 'city', 'music', 'books', 'review'], 3).join(','),
    canonical_url: `https://example.com/${article.locale}/articles/${article.slug}`,
    prevent_indexing: article.draft,
    structured_data: random.chance(0.8)
      ? { '@context': 'https://schema.org', '@type': 'Article', headline: article.title, inLanguage: article.locale }
      : null,
  });
  await writer.attachMedia(seo, 'metaImage', article.headerImage);
  const networks = random.chance(0.5) ? ['Facebook', 'Twitter'] : [random.pick(['Facebook', 'Twitter'])];
  const cards = await writer.addComponents(
    seo,
    'metaSocial',
    networks.map((network) => ({ social_network: network, title: article.title.slice(0, 60), description: sentences(random, article.locale, 1).slice(0, 65) })),
  );
  for (const card of cards) await writer.attachMedia(card, 'image', random.pick(context.files.photos));
}

/** `links`: up to three further-reading links, external or on the site. */
export async function addLinks(context: DemoContext, article: ArticleDraft, count: number): Promise<void> {
  const { writer, random } = context;
  const rows = Array.from({ length: count }, (_, index) => {
    const external = random.chance(0.6);
    return {
      label: external ? `Further reading ${index + 1}` : `More on ${article.category}`,
      url: external ? `https://www.${random.pick(['wikipedia.org', 'openstreetmap.org', 'bbc.co.uk'])}/${article.slug}` : `/categories/${slugify(article.category)}`,
      is_external: external,
    };
  });
  await writer.addComponents(article.entry, 'links', rows);
}

/** `related`: a heading, a category and a few restaurants, linked from inside the component. */
export async function addRelated(context: DemoContext, article: ArticleDraft): Promise<void> {
  const { writer, random } = context;
  const related = await writer.addComponent(article.entry, 'related', { heading: `More about ${article.category}` });
  await writer.link(related, 'category', categoryId(context.categories, article.category));
  await writer.link(related, 'restaurants', random.sample(context.restaurants, random.int(1, 3)));
}

/** A zone block of the given component with its row; media and relations are added by `fillBlocks`. */
function block(context: DemoContext, component: string, locale: DemoLocale, slug: string): ZoneBlock {
  const { random } = context;
  switch (component) {
    case 'shared.rich-text':
      return { component, row: { body: markdownBody(random, locale, random.int(1, 2), `articles/${slug}`) } };
    case 'shared.quote':
      return { component, row: { title: sentences(random, locale, 1).split(' ').slice(0, 4).join(' '), body: sentences(random, locale, 1), author: random.pick(QUOTE_AUTHORS) } };
    case 'shared.media':
      return { component, row: { caption: random.chance(0.7) ? sentences(random, locale, 1) : null } };
    default:
      return { component, row: { title: random.chance(0.7) ? `Gallery: ${slug.replace(/-/g, ' ')}` : null } };
  }
}

/**
 * `blocks`: the zone's components in the given order; quotes link to a category (the last
 * quote of a zone to none, so an empty relation shows too), media blocks hold a file and
 * sliders several.
 */
export async function fillBlocks(context: DemoContext, article: ArticleDraft, components: readonly string[]): Promise<void> {
  const { writer, random, files } = context;
  const blocks = components.map((component) => block(context, component, article.locale, article.slug));
  const created = await writer.fillZone(article.entry, 'blocks', blocks);
  const quotes = components.filter((uid) => uid === 'shared.quote').length;
  const unlinkedQuote = quotes > 1 ? components.lastIndexOf('shared.quote') : -1;
  for (const [index, component] of created.entries()) {
    const uid = components[index];
    if (uid === 'shared.quote' && index !== unlinkedQuote) {
      await writer.link(component, 'category', random.pick([...context.categories.values()]));
    } else if (uid === 'shared.media') {
      await writer.attachMedia(component, 'file', random.chance(0.8) ? random.pick(files.photos) : files.video);
    } else if (uid === 'shared.slider') {
      await writer.attachMedia(component, 'files', random.sample(files.photos, random.int(2, 4)));
    }
  }
}
