/**
 * What the demo articles are about: a title, a kind, the category they are filed under, whether
 * they are still drafts, and for some a French version (title and summary written by hand; the
 * body comes from the French sentence bank).
 */

export type ArticleKind = 'news' | 'review' | 'tutorial' | 'interview';

export interface Topic {
  readonly title: string;
  readonly kind: ArticleKind;
  /** The `category` (manyToOne) of the article. */
  readonly category: string;
  /** Other categories of its `categories` (manyToMany) list, after `category`. */
  readonly alsoIn: readonly string[];
  /** Unpublished: `published_at` NULL, hidden unless publicationState=preview. */
  readonly draft?: boolean;
  /** The French localization, when there is one. */
  readonly fr?: { readonly title: string; readonly description: string; readonly draft?: boolean };
  /** The category whose `featuredArticle` this is. */
  readonly featuredIn?: string;
}

export const TOPICS: readonly Topic[] = [
  {
    title: 'A Weekend of Street Food in Lisbon',
    kind: 'review',
    category: 'Street Food',
    alsoIn: ['City Guides', 'Travel'],
    featuredIn: 'Street Food',
    fr: { title: 'Un week-end de street food à Lisbonne', description: 'Bifanas, pastéis et sardines : notre tour des comptoirs de Lisbonne.' },
  },
  {
    title: 'How to Keep a Sourdough Starter Alive',
    kind: 'tutorial',
    category: 'Sourdough',
    alsoIn: ['Baking'],
    featuredIn: 'Sourdough',
    fr: { title: 'Comment garder un levain vivant', description: 'Farine, eau, patience : le guide pour ne plus jamais perdre son levain.' },
  },
  {
    title: 'The Natural Wine Bars of Paris',
    kind: 'review',
    category: 'Wine & Drinks',
    alsoIn: ['City Guides'],
    featuredIn: 'Wine & Drinks',
    fr: { title: 'Les bars à vins nature de Paris', description: 'Douze adresses où boire des vins vivants, du Marais à Belleville.' },
  },
  { title: 'Ten Days on the Coast Road', kind: 'review', category: 'Road Trips', alsoIn: ['Travel'], featuredIn: 'Road Trips' },
  { title: 'Inside a Neighbourhood Bookshop', kind: 'interview', category: 'Books', alsoIn: ['Culture'], featuredIn: 'Books' },
  { title: 'The Headphones We Wear Every Day', kind: 'review', category: 'Technology', alsoIn: [], featuredIn: 'Technology' },
  {
    title: 'Croissants, Step by Step',
    kind: 'tutorial',
    category: 'Baking',
    alsoIn: ['Food'],
    featuredIn: 'Baking',
    fr: { title: 'Les croissants, pas à pas', description: 'Le feuilletage expliqué simplement, du beurre froid au four chaud.' },
  },
  {
    title: 'A Chef Who Cooks Only With the Season',
    kind: 'interview',
    category: 'Food',
    alsoIn: [],
    featuredIn: 'Food',
    fr: { title: 'Une cheffe qui ne cuisine que de saison', description: 'Rencontre avec une cheffe qui écrit sa carte au marché, chaque matin.' },
  },
  { title: 'Night Markets Worth the Detour', kind: 'news', category: 'Street Food', alsoIn: ['Travel'] },
  { title: 'Berlin in Three Bowls of Ramen', kind: 'review', category: 'City Guides', alsoIn: ['Food', 'Street Food'] },
  { title: 'Records That Shaped Our Year', kind: 'news', category: 'Music', alsoIn: ['Culture'], draft: true },
  {
    title: 'Fresh Pasta Without a Machine',
    kind: 'tutorial',
    category: 'Food',
    alsoIn: ['Baking'],
    fr: { title: 'Des pâtes fraîches sans machine', description: 'Un rouleau, une planche et vingt minutes : les pâtes maison sans matériel.' },
  },
  {
    title: 'Porto Beyond the Port Wine',
    kind: 'review',
    category: 'City Guides',
    alsoIn: ['Travel', 'Wine & Drinks'],
    featuredIn: 'City Guides',
    fr: { title: 'Porto au-delà du porto', description: 'Azulejos, tascas et bord de mer : Porto sans son vin le plus célèbre.', draft: true },
  },
  { title: 'An Interview With a Vinyl Collector', kind: 'interview', category: 'Music', alsoIn: [], featuredIn: 'Music' },
  { title: 'The Quiet Season in Naples', kind: 'news', category: 'Travel', alsoIn: ['Food'] },
  { title: 'Packing Light With a Single Charger', kind: 'tutorial', category: 'Technology', alsoIn: ['Travel'], draft: true },
  {
    title: 'Bakeries of Copenhagen',
    kind: 'review',
    category: 'Baking',
    alsoIn: ['City Guides', 'Sourdough'],
    fr: { title: 'Les boulangeries de Copenhague', description: 'Cardamome, seigle et levain : les fours qu’il ne faut pas manquer.' },
  },
  { title: 'Reading Lists for Long Train Rides', kind: 'news', category: 'Books', alsoIn: ['Travel'] },
  { title: 'What Makes a Good Bistro', kind: 'interview', category: 'Food', alsoIn: ['Wine & Drinks'] },
  { title: 'Coffee Counters of Lisbon', kind: 'review', category: 'Wine & Drinks', alsoIn: ['City Guides'] },
  { title: 'Mountain Passes by Car', kind: 'tutorial', category: 'Road Trips', alsoIn: [] },
  { title: 'Festivals to Plan For This Summer', kind: 'news', category: 'Music', alsoIn: ['Travel'], draft: true },
  { title: 'A Field Guide to Market Stalls', kind: 'tutorial', category: 'Street Food', alsoIn: ['Food'] },
  { title: 'Our Favourite Gadgets for the Kitchen', kind: 'review', category: 'Technology', alsoIn: ['Food'], draft: true },
];
