/**
 * The demo articles: every scalar type of the schema with telling values (a biginteger above
 * 2^53 and the largest 64-bit one, json objects, arrays, strings and null, dates, times and
 * datetimes), drafts among them, English entries with French localizations linked both ways,
 * every relation kind, media, components and the `blocks` dynamic zone. Categories feature some
 * of them (`featuredArticle`, owned by the category).
 */
import { addLinks, addRelated, addSeo, fillBlocks, type ArticleDraft } from './article-parts.js';
import { categoryId, CATEGORY_UID } from './categories.js';
import type { DemoContext } from './context.js';
import { clockTime, demoDate, demoMoment } from './dates.js';
import { markdownBody, sentences, slugify, type DemoLocale } from './text.js';
import { TOPICS, type Topic } from './topics.js';
import { placeholderHash } from './users.js';

export const ARTICLE_UID = 'api::article.article';

const ZONE_COMPONENTS = ['shared.rich-text', 'shared.quote', 'shared.media', 'shared.slider'];

/** Exact strings a JavaScript number would round: 2^53 + 1, and the largest 64-bit integer. */
const EXACT_BIGINTEGERS = ['9007199254740993', '9223372036854775807'];

/** An entry of a topic in one locale, and what it shares with its other locale. */
interface EntrySpec {
  readonly topic: Topic;
  readonly index: number;
  readonly locale: DemoLocale;
  readonly title: string;
  readonly description: string;
  readonly draft: boolean;
  /** Hours after the demo epoch. */
  readonly createdAt: number;
  /** Not localized: the French entry carries the English one's value, as Strapi keeps them in sync. */
  readonly readingMinutes: number | null;
}

/** The json `metadata` in turn: an object, an array, a plain string, null, and a nested object. */
function metadataFor(context: DemoContext, spec: EntrySpec): unknown {
  const { random } = context;
  switch (spec.index % 5) {
    case 0:
      return { tags: random.sample(['local', 'seasonal', 'budget', 'classic', 'new'], 2), difficulty: random.pick(['easy', 'medium', 'hard']), sponsored: false };
    case 1:
      return [spec.topic.kind, spec.topic.category, random.int(1, 9), true];
    case 2:
      return spec.locale === 'en' ? 'editor’s pick' : 'coup de cœur';
    case 3:
      return null;
    default:
      return { sources: [{ title: 'Field notes', url: 'https://example.com/notes' }], score: random.decimal(0, 1, 2), revisedBy: null };
  }
}

/** The scalar columns of an entry. */
function scalarRow(context: DemoContext, spec: EntrySpec, author: number): Record<string, unknown> {
  const { random, users } = context;
  const slug = slugify(spec.title);
  const content = markdownBody(random, spec.locale, random.int(2, 4), `articles/${slug}`);
  const views = random.int(0, 48_000);
  const special = spec.locale === 'en' ? EXACT_BIGINTEGERS[spec.index] : undefined;
  return {
    title: spec.title,
    slug,
    description: spec.description,
    content,
    kind: spec.topic.kind,
    contact_email: spec.index % 4 === 3 ? null : users.emails.get(author),
    publish_date: demoDate(spec.createdAt / 24 + 1),
    publish_time: clockTime(random.int(6, 20), random.pick([0, 15, 30, 45])),
    scheduled_at: spec.index % 3 === 0 ? demoMoment(spec.createdAt + 24 * random.int(10, 40)) : null,
    views,
    views_total: special ?? (spec.index % 6 === 5 ? null : String(views * random.int(20, 400))),
    rating: random.decimal(1, 5, 3),
    price: spec.index % 5 === 4 ? null : spec.index % 7 === 1 ? 0 : random.decimal(1, 60, 2),
    featured: spec.topic.featuredIn !== undefined,
    metadata: metadataFor(context, spec),
    reading_minutes: spec.readingMinutes ?? random.int(3, 14),
    internal_notes: `Check the photo credits before the next update. ${sentences(random, 'en', 1)}`,
    access_code: spec.index % 6 === 2 ? placeholderHash(random) : null,
    created_at: demoMoment(spec.createdAt),
    updated_at: demoMoment(spec.createdAt + random.int(1, 72)),
    published_at: spec.draft ? null : demoMoment(spec.createdAt + 2),
    locale: spec.locale,
  };
}

/** The zone of an entry: the first article shows every component (and two quotes); others a few. */
function zoneOf(context: DemoContext, spec: EntrySpec): string[] {
  if (spec.index === 0) return spec.locale === 'en' ? [...ZONE_COMPONENTS, 'shared.quote'] : ['shared.rich-text', 'shared.quote'];
  return ['shared.rich-text', ...context.random.sample(ZONE_COMPONENTS, context.random.int(0, 3))];
}

/** Creates one entry with its relations, media and components. */
async function createEntry(context: DemoContext, spec: EntrySpec): Promise<ArticleDraft & { row: Record<string, unknown> }> {
  const { writer, random, files, users, categories, restaurants } = context;
  const author = users.ids[spec.index % users.ids.length] as number;
  const row = scalarRow(context, spec, author);
  const entry = await writer.create(ARTICLE_UID, row);
  const { topic } = spec;
  await writer.link(entry, 'category', categoryId(categories, topic.category));
  await writer.link(entry, 'categories', [topic.category, ...topic.alsoIn].map((name) => categoryId(categories, name)));
  await writer.link(entry, 'author', author);
  if (spec.locale === 'en' && spec.index % 2 === 0) await writer.link(entry, 'relatedRestaurants', random.sample(restaurants, random.int(1, 3)));
  const headerImage = files.photos[spec.index % files.photos.length] as number;
  await writer.attachMedia(entry, 'headerImage', headerImage);
  const gallery = spec.index === 0 ? [files.photos[1]!, files.pdf, files.video, files.audio] : random.sample(files.photos, spec.index % 3);
  await writer.attachMedia(entry, 'gallery', gallery);
  const draft: ArticleDraft = { entry, title: spec.title, slug: row.slug as string, locale: spec.locale, category: topic.category, headerImage, draft: spec.draft };
  if (spec.index % 7 !== 6) await addSeo(context, draft);
  if (spec.locale === 'en') await addLinks(context, draft, [2, 1, 0, 3][spec.index % 4]!);
  if (spec.locale === 'en' && spec.index % 3 !== 2) await addRelated(context, draft);
  await fillBlocks(context, draft, zoneOf(context, spec));
  return { ...draft, row };
}

/** Creates the English articles, then the French localizations, then the categories' featured articles. */
export async function seedArticles(context: DemoContext): Promise<void> {
  const { writer, random } = context;
  const english = [];
  for (const [index, topic] of TOPICS.entries()) {
    const spec: EntrySpec = { topic, index, locale: 'en', title: topic.title, description: sentences(random, 'en', 1), draft: topic.draft === true, createdAt: 200 + index * 30, readingMinutes: null };
    english.push(await createEntry(context, spec));
  }
  for (const [index, topic] of TOPICS.entries()) {
    if (!topic.fr) continue;
    const source = english[index]!;
    const { title, description, draft = false } = topic.fr;
    const readingMinutesOfSource = source.row.reading_minutes as number;
    const spec: EntrySpec = { topic, index, locale: 'fr', title, description, draft, createdAt: 200 + index * 30 + 72, readingMinutes: readingMinutesOfSource };
    const french = await createEntry(context, spec);
    await writer.link(source.entry, 'localizations', french.entry.id);
    await writer.link(french.entry, 'localizations', source.entry.id);
  }
  for (const [index, topic] of TOPICS.entries()) {
    if (!topic.featuredIn) continue;
    const category = writer.existing(CATEGORY_UID, categoryId(context.categories, topic.featuredIn));
    await writer.link(category, 'featuredArticle', english[index]!.entry.id);
  }
}
