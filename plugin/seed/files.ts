/**
 * The demo media library: photos, category icons, a PDF, a video and an audio file, as rows of
 * the `files` table exactly as Strapi's upload plugin (local provider) writes them — a hash of
 * the file name plus a random suffix, `/uploads/<hash><ext>` URLs, sizes in kB, and `formats`
 * for images: `thumbnail` (fit inside 245×156) and `small`/`medium` (fit inside 500 and 750)
 * whenever the original is larger. Photos are at most 1000 px wide or high, so the `large`
 * breakpoint never applies.
 */
import { timestamps } from './dates.js';
import type { SeededRandom } from './random.js';
import type { SeedWriter } from './writer.js';

/** The ids of the demo files, by use. */
export interface DemoFiles {
  readonly photos: readonly number[];
  readonly icons: readonly number[];
  readonly pdf: number;
  readonly video: number;
  readonly audio: number;
}

interface Upload {
  readonly name: string;
  readonly caption: string | null;
  readonly alt: string | null;
  readonly width: number | null;
  readonly height: number | null;
  readonly mime: string;
}

const PHOTOS: readonly [string, string, number, number][] = [
  ['lisbon-tram', 'A yellow tram climbing a street in Alfama', 1000, 667],
  ['pastel-de-nata', 'Custard tarts fresh out of the oven', 1000, 750],
  ['sourdough-loaf', 'A sourdough loaf with a dark crust', 800, 800],
  ['market-stall', 'Vegetables piled high on a market stall', 1000, 563],
  ['coffee-counter', 'Espresso cups on a zinc counter', 960, 640],
  ['harbour-sunset', 'Fishing boats in the harbour at sunset', 1000, 667],
  ['bookshop-shelves', 'Wooden shelves of a crowded bookshop', 750, 1000],
  ['vinyl-records', 'A crate of vinyl records', 1000, 750],
  ['mountain-road', 'A road winding through the mountains', 1000, 563],
  ['wine-cellar', 'Barrels in a vaulted wine cellar', 960, 640],
  ['street-food-truck', 'A food truck with a queue at lunchtime', 1000, 667],
  ['croissants', 'Croissants cooling on a rack', 800, 800],
  ['old-town-square', 'An old town square early in the morning', 1000, 667],
  ['headphones', 'Wireless headphones on a desk', 900, 600],
  ['pasta-making', 'Hands shaping fresh pasta', 1000, 750],
  ['night-market', 'Lanterns above a night market', 1000, 563],
  ['bistro-terrace', 'Tables on a bistro terrace', 960, 640],
  ['ramen-bowl', 'A steaming bowl of ramen', 800, 800],
];

const ICONS = ['food', 'travel', 'culture', 'technology'];

const DOCUMENTS = {
  pdf: { name: 'autumn-menu.pdf', caption: 'The autumn menu', alt: null, width: null, height: null, mime: 'application/pdf' },
  video: { name: 'city-walk.mp4', caption: 'A walk through the old town', alt: null, width: null, height: null, mime: 'video/mp4' },
  audio: { name: 'market-sounds.mp3', caption: 'Morning sounds of the market', alt: null, width: null, height: null, mime: 'audio/mpeg' },
} satisfies Record<string, Upload>;

/** The breakpoints Strapi resizes to, thumbnail first: [name, max width, max height]. */
const FORMATS: readonly [string, number, number][] = [
  ['thumbnail', 245, 156],
  ['small', 500, 500],
  ['medium', 750, 750],
];

/** Kilobytes with two decimals, as the upload plugin records sizes. */
function kilobytes(bytes: number): number {
  return Math.round(bytes / 10) / 100;
}

/** The image formats of an upload: each breakpoint smaller than the original, fit inside it. */
function imageFormats(upload: Upload, hash: string, ext: string, bytesPerPixel: number): Record<string, unknown> | null {
  const { width, height } = upload;
  if (width === null || height === null) return null;
  const formats: Record<string, unknown> = {};
  for (const [key, maxWidth, maxHeight] of FORMATS) {
    if (key !== 'thumbnail' && width <= maxWidth && height <= maxHeight) continue;
    const scale = Math.min(maxWidth / width, maxHeight / height, 1);
    const [w, h] = [Math.round(width * scale), Math.round(height * scale)];
    const sizeInBytes = Math.round(w * h * bytesPerPixel);
    formats[key] = {
      name: `${key}_${upload.name}`,
      hash: `${key}_${hash}`,
      ext,
      mime: upload.mime,
      path: null,
      width: w,
      height: h,
      size: kilobytes(sizeInBytes),
      sizeInBytes,
      url: `/uploads/${key}_${hash}${ext}`,
    };
  }
  return formats;
}

/** Inserts one upload `hours` after the demo epoch; returns its id. */
async function upload(writer: SeedWriter, random: SeededRandom, file: Upload, hours: number): Promise<number> {
  const ext = file.name.slice(file.name.lastIndexOf('.'));
  const hash = `${file.name.slice(0, -ext.length).replace(/[^A-Za-z0-9]+/g, '_')}_${random.hex(10)}`;
  const bytesPerPixel = random.decimal(0.12, 0.3, 3);
  const bytes = file.width && file.height ? file.width * file.height * bytesPerPixel : random.int(150_000, 4_000_000);
  const row = await writer.create('plugin::upload.file', {
    name: file.name,
    alternative_text: file.alt,
    caption: file.caption,
    width: file.width,
    height: file.height,
    formats: imageFormats(file, hash, ext, bytesPerPixel),
    hash,
    ext,
    mime: file.mime,
    size: kilobytes(bytes),
    url: `/uploads/${hash}${ext}`,
    preview_url: null,
    provider: 'local',
    provider_metadata: null,
    folder_path: '/',
    ...timestamps(hours),
  });
  return row.id;
}

/** Uploads the media library, an hour apart. */
export async function seedFiles(writer: SeedWriter, random: SeededRandom): Promise<DemoFiles> {
  let hour = 0;
  const photos: number[] = [];
  for (const [name, alt, width, height] of PHOTOS) {
    const file: Upload = { name: `${name}.jpg`, alt, caption: alt, width, height, mime: 'image/jpeg' };
    photos.push(await upload(writer, random, file, hour++));
  }
  const icons: number[] = [];
  for (const name of ICONS) {
    const file: Upload = { name: `icon-${name}.png`, alt: `${name} icon`, caption: null, width: 256, height: 256, mime: 'image/png' };
    icons.push(await upload(writer, random, file, hour++));
  }
  return {
    photos,
    icons,
    pdf: await upload(writer, random, DOCUMENTS.pdf, hour++),
    video: await upload(writer, random, DOCUMENTS.video, hour++),
    audio: await upload(writer, random, DOCUMENTS.audio, hour++),
  };
}
