/**
 * Readable prose for the demo entries, in English and French: sentences drawn from small banks
 * and arranged as Markdown the way editors write rich text (a heading, paragraphs, a list,
 * emphasis and a link), so clients have something realistic to render.
 */
import type { SeededRandom } from './random.js';

export type DemoLocale = 'en' | 'fr';

const SENTENCES: Record<DemoLocale, readonly string[]> = {
  en: [
    'The best way to learn a place is to eat where the locals eat.',
    'We went back three times, and every visit taught us something new.',
    'Arrive early: by noon the queue reaches the end of the street.',
    'Nothing here is complicated, and that is exactly the point.',
    'Ask for the daily special; it changes with what the market had that morning.',
    'The owners have run the place for twenty years and still greet every guest by name.',
    'A good knife, a hot pan and patience will take you further than any gadget.',
    'Trains are the calmest way to cross the region, and the views are free.',
    'Bring cash: the smaller stalls still do not take cards.',
    'The recipe fits on an index card, yet it took us a month to get it right.',
    'Book a table on weekdays; weekends fill up weeks in advance.',
    'Autumn is the quiet season, when prices drop and the light turns golden.',
    'Each chapter reads like a conversation with an old friend.',
    'The second album is braver than the first, and it shows.',
    'We tested it for six weeks of daily use before writing a single word.',
    'Leave room for dessert; the tart alone is worth the trip.',
    'Walk the old town at dawn, before the tour buses arrive.',
    'Fermentation is slow cooking without the stove: time does the work.',
    'Our readers asked for a shorter version, so here are the essentials.',
    'The battery lasts two full days, which changed how we travel with it.',
  ],
  fr: [
    'La meilleure façon de découvrir un lieu est de manger là où mangent ses habitants.',
    'Nous y sommes retournés trois fois, et chaque visite nous a appris quelque chose.',
    'Arrivez tôt : à midi, la file d’attente atteint le bout de la rue.',
    'Rien n’est compliqué ici, et c’est précisément tout l’intérêt.',
    'Demandez le plat du jour ; il change selon ce que le marché offrait le matin.',
    'Les propriétaires tiennent la maison depuis vingt ans et saluent chacun par son prénom.',
    'Un bon couteau, une poêle chaude et de la patience valent mieux que tous les gadgets.',
    'Le train est la façon la plus paisible de traverser la région, et la vue est offerte.',
    'Prévoyez des espèces : les petits stands n’acceptent toujours pas la carte.',
    'La recette tient sur une fiche, mais il nous a fallu un mois pour la réussir.',
    'Réservez en semaine ; le week-end, tout est complet des semaines à l’avance.',
    'L’automne est la saison calme, quand les prix baissent et que la lumière se fait dorée.',
  ],
};

const LIST_ITEMS: Record<DemoLocale, readonly string[]> = {
  en: ['go early', 'share plates', 'ask the staff', 'walk, do not drive', 'check the season', 'keep it simple', 'taste as you go'],
  fr: ['venir tôt', 'partager les plats', 'demander conseil', 'marcher plutôt que rouler', 'suivre la saison', 'rester simple'],
};

const HEADINGS: Record<DemoLocale, readonly string[]> = {
  en: ['Why it matters', 'What we found', 'How to get there', 'Before you go', 'The verdict', 'Step by step'],
  fr: ['Pourquoi c’est important', 'Ce que nous avons trouvé', 'Comment y aller', 'Avant de partir', 'Le verdict'],
};

/** `count` sentences joined into one paragraph. */
export function sentences(random: SeededRandom, locale: DemoLocale, count: number): string {
  return random.sample(SENTENCES[locale], count).join(' ');
}

/** A Markdown article body: a heading, `paragraphs` paragraphs, a short list and an emphasised closing line with a link. */
export function markdownBody(random: SeededRandom, locale: DemoLocale, paragraphs: number, linkSlug: string): string {
  const blocks = [`## ${random.pick(HEADINGS[locale])}`];
  for (let i = 0; i < paragraphs; i += 1) blocks.push(sentences(random, locale, random.int(2, 4)));
  blocks.push(random.sample(LIST_ITEMS[locale], 3).map((item) => `- ${item}`).join('\n'));
  const closing = locale === 'en' ? 'Read more' : 'Lire la suite';
  blocks.push(`**${closing}** on [our site](https://example.com/${locale}/${linkSlug}).`);
  return `${blocks.join('\n\n')}\n`;
}

/** `Crème brûlée à Lyon` → `creme-brulee-a-lyon`: what Strapi's uid field proposes for a title. */
export function slugify(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}
