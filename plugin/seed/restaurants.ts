/**
 * The demo restaurants: an address (single component with a json `geo` point), a week of opening
 * hours (repeatable component, closed days included), a cover and a few photos, and the
 * categories they belong to (linked from the category side, which owns that relation).
 */
import { categoryId, CATEGORY_UID, type DemoCategories } from './categories.js';
import { clockTime, timestamps } from './dates.js';
import type { DemoFiles } from './files.js';
import type { SeededRandom } from './random.js';
import { markdownBody, sentences, slugify } from './text.js';
import type { SeedWriter } from './writer.js';

export const RESTAURANT_UID = 'api::restaurant.restaurant';

interface Place {
  readonly name: string;
  readonly street: string;
  readonly city: string;
  readonly zip: string;
  readonly country: string;
  readonly geo: readonly [number, number];
  readonly phone: string;
  readonly priceRange: 'cheap' | 'average' | 'expensive';
  readonly categories: readonly string[];
}

const PLACES: readonly Place[] = [
  { name: 'Tasca do Bairro', street: 'Rua dos Remédios 42', city: 'Lisbon', zip: '1100-445', country: 'PT', geo: [38.7117, -9.1295], phone: '+351 21 886 1234', priceRange: 'cheap', categories: ['Food', 'Street Food'] },
  { name: 'Le Petit Zinc', street: '12 rue de Bretagne', city: 'Paris', zip: '75003', country: 'FR', geo: [48.8632, 2.3615], phone: '+33 1 42 72 00 12', priceRange: 'average', categories: ['Food', 'Wine & Drinks'] },
  { name: 'Bouchon des Canuts', street: '8 rue d’Austerlitz', city: 'Lyon', zip: '69004', country: 'FR', geo: [45.7745, 4.8283], phone: '+33 4 78 28 11 30', priceRange: 'average', categories: ['Food'] },
  { name: 'Forno Antico', street: 'Via dei Tribunali 120', city: 'Naples', zip: '80138', country: 'IT', geo: [40.8513, 14.2580], phone: '+39 081 446 2020', priceRange: 'cheap', categories: ['Food', 'Baking', 'Street Food'] },
  { name: 'Mar Salada', street: 'Rua de São João 7', city: 'Porto', zip: '4050-552', country: 'PT', geo: [41.1412, -8.6132], phone: '+351 22 200 4455', priceRange: 'expensive', categories: ['Food', 'Wine & Drinks'] },
  { name: 'Brødværket', street: 'Jægersborggade 31', city: 'Copenhagen', zip: '2200', country: 'DK', geo: [55.6942, 12.5442], phone: '+45 33 12 45 67', priceRange: 'average', categories: ['Baking', 'Sourdough'] },
  { name: 'La Bodega Azul', street: 'Carrer de Blai 18', city: 'Barcelona', zip: '08004', country: 'ES', geo: [41.3738, 2.1641], phone: '+34 934 41 22 10', priceRange: 'cheap', categories: ['Food', 'Wine & Drinks', 'City Guides'] },
  { name: 'Kiez Küche', street: 'Oranienstraße 170', city: 'Berlin', zip: '10999', country: 'DE', geo: [52.5006, 13.4190], phone: '+49 30 6150 3344', priceRange: 'cheap', categories: ['Street Food'] },
  { name: 'Maison Vérane', street: '3 quai des Célestins', city: 'Paris', zip: '75004', country: 'FR', geo: [48.8521, 2.3610], phone: '+33 1 44 59 87 00', priceRange: 'expensive', categories: ['Food', 'Wine & Drinks'] },
  { name: 'Ramen Hinode', street: 'Kastanienallee 55', city: 'Berlin', zip: '10119', country: 'DE', geo: [52.5353, 13.4088], phone: '+49 30 4403 2211', priceRange: 'average', categories: ['Food', 'City Guides'] },
];

const DAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];

/** A week of opening hours: one or two closed days, otherwise lunch-to-late or all-day service. */
function openingHours(random: SeededRandom): Record<string, unknown>[] {
  const closed = new Set(random.sample(DAYS, random.int(1, 2)));
  const opens = random.pick([[8, 0], [11, 30], [12, 0]]);
  const closes = random.pick([[15, 0], [22, 30], [23, 0]]);
  return DAYS.map((day) => {
    if (closed.has(day)) return { day, opens: null, closes: null, closed: true };
    const late = day === 'friday' || day === 'saturday' ? 1 : 0;
    return { day, opens: clockTime(opens[0]!, opens[1]!), closes: clockTime(Math.min(closes[0]! + late, 23), closes[1]!), closed: false };
  });
}

/** Creates the restaurants with their components and media, then links them to their categories. */
export async function seedRestaurants(writer: SeedWriter, random: SeededRandom, files: DemoFiles, categories: DemoCategories): Promise<number[]> {
  const ids: number[] = [];
  const byCategory = new Map<string, number[]>();
  for (const [index, place] of PLACES.entries()) {
    const slug = slugify(place.name);
    const restaurant = await writer.create(RESTAURANT_UID, {
      name: place.name,
      slug,
      description: markdownBody(random, 'en', random.int(1, 2), `restaurants/${slug}`),
      price_range: place.priceRange,
      email: `hello@${slug}.example.com`,
      phone: place.phone,
      capacity: random.int(4, 24) * 5,
      rating: random.decimal(3, 5, 2),
      secret_recipe: `Secret: ${sentences(random, 'en', 1)}`,
      ...timestamps(120 + index * 6, random.int(0, 48)),
    });
    const [cover, ...images] = random.sample(files.photos, random.int(2, 4));
    await writer.attachMedia(restaurant, 'cover', cover);
    await writer.attachMedia(restaurant, 'images', images);
    const { street, city, zip, country, geo } = place;
    await writer.addComponent(restaurant, 'address', { street, city, zip, country, geo: { lat: geo[0], lng: geo[1] } });
    await writer.addComponents(restaurant, 'openingHours', openingHours(random));
    for (const name of place.categories) byCategory.set(name, [...(byCategory.get(name) ?? []), restaurant.id]);
    ids.push(restaurant.id);
  }
  for (const [name, restaurantIds] of byCategory) {
    await writer.link(writer.existing(CATEGORY_UID, categoryId(categories, name)), 'restaurants', restaurantIds);
  }
  return ids;
}
