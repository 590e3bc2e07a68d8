/**
 * The recorded single-type cases we answer differently on purpose (docs/deviations.md): each names
 * its row and gives the answer we give instead, from the recorded one. Every other case must match
 * the recording (status; an error's whole body; a success's whole body, "<now>" aside).
 */
/** Recorded JSON, patched in place. */
type Json = Record<string, any>;

export interface Deviation {
  readonly row: string;
  /** The answer we give: from a copy of the recorded one. */
  readonly expect?: (recorded: { status: number; response: Json }) => void;
  /** Compare only the status and `error.name` (our message or `details` say more: D13, W12), and `details.path` when ours gives one. */
  readonly nameOnly?: boolean;
}

const NOW = '<now>';

/** Our 400 for a query Strapi answers: `error.name` compared (nameOnly), with the path of `details`. */
function refusedQuery(path: string): Deviation['expect'] {
  return (recorded) => {
    recorded.status = 400;
    recorded.response = { data: null, error: { status: 400, name: 'ValidationError', message: '', details: { path } } };
  };
}

/** What we add to Strapi's error for a locale the API does not take (D13). */
const UNKNOWN_DE = { locale: 'de', locales: ['en', 'fr'], help: 'locale "de" is not one of en, fr (the locales option, or --locales)' };

export const DEVIATIONS: Readonly<Record<string, Deviation>> = {
  // Strapi ignores an unknown operator (every entry matches it); a typo is a 400 here (stricter input).
  'article-queries#1': { row: 'stricter input', nameOnly: true, expect: refusedQuery('filters.title.$foo') },
  'article-queries#2': { row: 'stricter input', nameOnly: true, expect: refusedQuery('filters.title.$foo') },
  // Strapi compares ids with the text "1,3" (no entry); a value that is not an id is a 400 here.
  'article-queries#3': { row: 'D1', nameOnly: true, expect: refusedQuery('filters.id.$in') },
  'homepage#22': { row: 'D13', nameOnly: true },
  'homepage#23': {
    row: 'W20',
    // The answer shows the en entry after the write: it took the new localization's headline.
    expect: ({ response }) => void (response.localizations[0].headline = 'Bienvenue'),
  },
  'homepage#27': { row: 'D13', expect: ({ response }) => void (response.error.details = UNKNOWN_DE) },
  'homepage#58': { row: 'W12', nameOnly: true },
  'homepage#64': {
    row: 'W20',
    // The answer shows the fr entry after the write: it took the headline.
    expect: ({ response }) => void (response.data.attributes.localizations.data[0].attributes.headline = 'Shine more'),
  },
  'homepage#68': {
    row: 'W20',
    // Every shared scalar is copied, whatever `fields` selects (the headline of #66); components are not.
    expect: ({ response }) => void (response.data.attributes.localizations.data[0].attributes.headline = 'Shine less'),
  },
  'homepage#69': {
    row: 'W20',
    expect: ({ response }) => void Object.assign(response.data.attributes, { headline: 'Shine less', seo: null }),
  },
  'homepage#70': { row: 'W20', expect: ({ response }) => void (response.data.attributes.headline = 'Shine less') },
  'homepage#72': {
    row: 'W8',
    expect: (recorded) => {
      recorded.status = 400;
      recorded.response = { data: null, error: { status: 400, name: 'ApplicationError', message: "This locale doesn't exist", details: UNKNOWN_DE } };
    },
  },
  'article-localizations#2': {
    row: 'W20',
    expect: ({ response }) => Object.assign(response.data.attributes.localizations.data[0].attributes, { readingMinutes: 77, updatedAt: NOW }),
  },
  'article-localizations#6': {
    row: 'W20',
    expect: ({ response }) => {
      Object.assign(response.data.attributes, { readingMinutes: 66, updatedAt: NOW });
      response.data.attributes.localizations.data = [{ id: 52, attributes: { readingMinutes: 66, locale: 'en', updatedAt: NOW } }];
    },
  },
  'article-localizations#7': {
    row: 'W20',
    expect: ({ response }) => Object.assign(response.data.attributes.localizations.data[0].attributes, { readingMinutes: 66, updatedAt: NOW }),
  },
  'article-localizations#8': {
    row: 'W20',
    // The PUT populates localizations: 42 takes readingMinutes, and the answer shows it after the write.
    expect: ({ response }) => Object.assign(response.data.attributes.localizations.data[0].attributes, { readingMinutes: 55, updatedAt: NOW }),
  },
  'article-localizations#13': {
    row: 'W20',
    // The PUT of 41 populated localizations: every shared scalar is copied, whatever its `fields` selected.
    expect: ({ response }) => void (response.data.attributes.readingMinutes = 91),
  },
  'article-localizations#18': {
    row: 'W3',
    nameOnly: true,
    expect: (recorded) => {
      recorded.status = 400;
      recorded.response = { data: null, error: { status: 400, name: 'ValidationError', message: '', details: {} } };
    },
  },
  'article-localizations#11': {
    row: 'W20',
    // Strapi copies only what the request's `fields` selected; we copy every non-localized attribute.
    expect: ({ response }) => void (response.data.attributes.readingMinutes = 33),
  },
};
