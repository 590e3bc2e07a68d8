/**
 * Where the plugin answers a recorded write differently from Strapi 4.26.2 on purpose, as data.
 * Two kinds:
 *
 * - `adjust`: the answer is the reference's, with a difference of ours (a value), so the
 *   recording is compared as any case is, once adjusted.
 * - `status` (with `name`, `paths`, `check`): our own answer. When we refuse a body the reference
 *   accepted, `repair` is the same request with the offending part removed, sent right after our
 *   refusal and compared with the recording: the entry (and so every later id) is then where the
 *   reference put it.
 *
 * Strapi's side of each is in test/writes/recorded/README.md ("Silently dropped", "Silently
 * accepted", "Rounded on output only"); ours in docs/deviations.md.
 */
import type { Expectation, RecordedAnswer, RecordedRequest } from './cases.js';
import type { JsonPath } from './compare.js';

/** A further check of a body: a problem, or undefined when it holds. */
export type BodyCheck = (body: unknown) => string | undefined;
/** The recording as our answer to the same request should read. */
export type AdjustExpectation = (recorded: Expectation) => Expectation;

export interface Repair {
  /** The request to send right after our refusal: the recorded one without the offending part. */
  readonly request: (recorded: RecordedRequest) => RecordedRequest;
  /** When the removed part showed in the recording's answers: what they read without it. */
  readonly adjust?: AdjustExpectation;
}

interface DeviationBase {
  readonly seq: number;
  /** The deviation's code and why, in a few words. */
  readonly reason: string;
}

/** The reference's answer, with a difference of ours. */
export interface AdjustedRecording extends DeviationBase {
  readonly adjust: AdjustExpectation;
}

/** An answer of our own; the read-back, when the case has one and there is no repair, is compared as recorded. */
export interface OwnAnswer extends DeviationBase {
  readonly status: number;
  /** `error.name`, compared when given. */
  readonly name?: string;
  /** `error.details.errors[].path`, compared (in any order) when given. */
  readonly paths?: readonly JsonPath[];
  readonly check?: BodyCheck;
  readonly repair?: Repair;
}

export type Deviation = AdjustedRecording | OwnAnswer;

// ---- building repairs ------------------------------------------------------------------------

type Json = Record<string, unknown> | unknown[];

function removeAt(value: unknown, path: JsonPath): void {
  const parent = path.slice(0, -1).reduce<unknown>((node, key) => (node as Record<string | number, unknown> | undefined)?.[key], value);
  const last = path[path.length - 1]!;
  if (Array.isArray(parent) && typeof last === 'number') parent.splice(last, 1);
  else if (parent && typeof parent === 'object') delete (parent as Record<string, unknown>)[last];
}

/** The request with the given paths of `data` removed. */
function withoutData(...paths: JsonPath[]): Repair['request'] {
  return (request) => {
    const body = structuredClone(request.body) as { data: Json };
    for (const path of paths) removeAt(body.data, path);
    return { ...request, body };
  };
}

/** The request with `data` replaced, sent as JSON (whatever body, raw body or content type it had). */
function withJsonData(data: Record<string, unknown>): Repair['request'] {
  return ({ rawBody: _rawBody, headers: _headers, ...request }) => ({ ...request, body: { data } });
}

/** The request with the value at `path` of `data` replaced. */
function withDataValue(path: JsonPath, value: unknown): Repair['request'] {
  return (request) => {
    const body = structuredClone(request.body) as { data: Json };
    const parent = path.slice(0, -1).reduce<unknown>((node, key) => (node as Record<string | number, unknown>)[key], body.data) as Record<string | number, unknown>;
    parent[path[path.length - 1]!] = value;
    return { ...request, body };
  };
}

function withPath(path: string): Repair['request'] {
  return (request) => ({ ...request, path });
}

/** The expectation with `edit` applied to the attributes of the answer and of the read-back. */
function editAttributes(edit: (attributes: Record<string, unknown>, where: 'answer' | 'readBack') => void): AdjustExpectation {
  return (recorded) => {
    const edited = structuredClone(recorded) as { answer: RecordedAnswer; readBack?: RecordedAnswer };
    for (const where of ['answer', 'readBack'] as const) {
      const attributes = (edited[where]?.response as { data?: { attributes?: Record<string, unknown> } } | undefined)?.data?.attributes;
      if (attributes) edit(attributes, where);
    }
    return edited as Expectation;
  };
}

/** The attribute reads `value` wherever the recording shows it. */
function attributeReads(name: string, value: unknown): AdjustExpectation {
  return editAttributes((attributes) => {
    if (name in attributes) attributes[name] = value;
  });
}

/** A check that the body is the error envelope with this status. */
function errorEnvelope(status: number): BodyCheck {
  return (body) => {
    const { data, error } = (body ?? {}) as { data?: unknown; error?: { status?: unknown; name?: unknown } };
    return data === null && error?.status === status && typeof error.name === 'string' ? undefined : `expected the error envelope { data: null, error: { status: ${status}, name, … } }`;
  };
}

const refused = (path: JsonPath) => ({ status: 400, name: 'ValidationError', paths: [path] });

// ---- the deviations --------------------------------------------------------------------------

const W1 = 'W1 an unknown attribute is a 400 (Strapi drops it)';
const W2 = 'W2 id, timestamps and creators are not writable: a 400 (Strapi drops them)';
const W3 = 'W3 data.locale where it cannot apply is a 400 (Strapi drops it)';
const W4 = 'W4 a relation object without id is a 400 (Strapi drops it)';
const W6 = 'W6 a number out of its type is a 400 (Strapi stores it)';
const W9 = 'W9 a body that is not a JSON object is a 400 ValidationError';
const D8 = 'D8 bigintegers are answered exactly (Strapi rounds them through a JS number)';
const W11 = 'W11 no such route: 405 in the JSON error envelope (Strapi: plain text)';
const W12 = 'W12 a missing related entry or file is named by its path (Strapi: path [])';
const W13 = 'W13 a zone item without a known __component lists that problem alone (Strapi adds one of its own, path [])';
const W14 = 'W14 a path that names no route is a 404 (Strapi: 405)';
const W15 = 'W15 a string holds at most 255 characters, its column size in the layout (Strapi stores more on SQLite, fails on PostgreSQL)';
const W16 = 'W16 a datetime without a zone is a 400 (Strapi reads it in the server time zone)';
const W17 = 'W17 values PostgreSQL cannot hold (NUL characters, years outside 1–9999) are a 400 on both engines (Strapi stores them on SQLite)';
const W18 = 'W18 a relation to a type the role may not read is a 400 (Strapi drops it)';
const W19 = 'W19 media on a role that may not read files is a 400 (Strapi stores it)';
const W20 = 'W20 localizations given in a created entry\'s data join the group and take its non-localized attributes whatever the request populates; answers show the group after the write';

export const DEVIATIONS: readonly Deviation[] = [
  { seq: 12, reason: W2, ...refused(['id']), repair: { request: withoutData(['id']) } },
  {
    seq: 13,
    reason: W2,
    status: 400,
    name: 'ValidationError',
    paths: [['createdAt'], ['updatedAt']],
    repair: { request: withoutData(['createdAt'], ['updatedAt']) },
  },
  {
    seq: 14,
    reason: W2,
    status: 400,
    name: 'ValidationError',
    paths: [['createdBy'], ['updatedBy']],
    repair: { request: withoutData(['createdBy'], ['updatedBy']) },
  },
  { seq: 15, reason: W1, ...refused(['colour']), repair: { request: withoutData(['colour']) } },
  { seq: 37, reason: W4, ...refused(['category']), repair: { request: withoutData(['category']) } },
  {
    seq: 64,
    reason: 'W5 a zone item of a component the zone does not list is a 400 (Strapi stores it)',
    ...refused(['blocks', 0, '__component']),
    // The item goes to `links` (the same component table) rather than nowhere, so the component
    // ids the reference gave later links (72, 73, 74) are given here too.
    repair: {
      request: withJsonData({ title: 'Zone wrong type', blocks: [], links: [{ label: 'x' }] }),
      adjust: editAttributes((attributes, where) => {
        if (where !== 'readBack') return;
        const [{ __component: _component, ...link }] = attributes.blocks as Record<string, unknown>[];
        attributes.blocks = [];
        attributes.links = [link];
      }),
    },
  },
  { seq: 66, reason: W1, ...refused(['blocks', 0, 'colour']), repair: { request: withoutData(['blocks', 0, 'colour']) } },
  {
    seq: 67,
    reason: "W10 a component id that is not one of the entry's components is a 400 on POST too (Strapi makes a new one)",
    status: 400,
    name: 'ApplicationError',
    repair: { request: withoutData(['links', 0, 'id']) },
  },
  {
    seq: 77,
    reason: "W7 a media file whose type the attribute does not allow is a 400 (Strapi stores it)",
    ...refused(['icon']),
    repair: { request: withoutData(['icon']), adjust: attributeReads('icon', { data: null }) },
  },
  // The recording's own entry, in fr: the readBack shows the locale too.
  { seq: 78, reason: 'W8 ?locale= on POST is honoured (Strapi ignores it)', adjust: attributeReads('locale', 'fr') },
  {
    seq: 82,
    reason: 'W8 ?locale= on POST is honoured, so an unknown one is a 400 (Strapi ignores it)',
    status: 400,
    name: 'ApplicationError',
    repair: { request: withPath('/api/articles') },
  },
  { seq: 83, reason: W3, ...refused(['locale']), repair: { request: withoutData(['locale']) } },
  { seq: 92, reason: W6, ...refused(['views']), repair: { request: withoutData(['views']), adjust: attributeReads('views', 0) } },
  { seq: 111, reason: W6, ...refused(['viewsTotal']), repair: { request: withoutData(['viewsTotal']), adjust: attributeReads('viewsTotal', null) } },
  { seq: 125, reason: `${W9} (Strapi: SyntaxError)`, status: 400, name: 'ValidationError' },
  { seq: 134, reason: `${W9} (Strapi parses forms)`, status: 400, name: 'ValidationError', repair: { request: withJsonData({ name: 'Form' }) } },
  { seq: 136, reason: `${W9} (Strapi: Error)`, status: 400, name: 'ValidationError' },
  { seq: 141, reason: W2, ...refused(['id']), repair: { request: withoutData(['id']) } },
  { seq: 149, reason: W3, ...refused(['locale']), repair: { request: withoutData(['locale']) } },
  { seq: 150, reason: W2, ...refused(['createdAt']), repair: { request: withoutData(['createdAt']) } },
  { seq: 188, reason: W1, ...refused(['colour']), repair: { request: withoutData(['colour']) } },
  ...[192, 218].map((seq) => ({ seq, reason: W11, status: 405, check: errorEnvelope(405) })),
  ...[191, 203, 217].map((seq) => ({ seq, reason: W14, status: 404, name: 'NotFoundError' })),
  { seq: 17, reason: W15, ...refused(['name']), repair: { request: withJsonData({ name: 'n'.repeat(255) }), adjust: attributeReads('name', 'n'.repeat(255)) } },
  { seq: 33, reason: W12, ...refused(['category']) },
  { seq: 34, reason: W12, ...refused(['categories']) },
  { seq: 68, reason: W12, ...refused(['blocks', 0, 'category']) },
  { seq: 69, reason: W12, ...refused(['blocks', 0, 'file']) },
  { seq: 74, reason: W12, ...refused(['headerImage']) },
  { seq: 63, reason: W13, ...refused(['blocks', 0, '__component']) },
  { seq: 65, reason: W13, ...refused(['blocks', 0, '__component']) },
  {
    seq: 201,
    reason: W20,
    // The source took the new localization's non-localized attributes: its updatedAt moved.
    adjust: (recorded) => {
      const edited = structuredClone(recorded) as { answer: { response: { localizations: { updatedAt: string }[] } } };
      edited.answer.response.localizations[0]!.updatedAt = '<now>';
      return edited as unknown as Expectation;
    },
  },
  {
    seq: 210,
    reason: W20,
    // Case 84 created article 94 listing 41: 41 lists 94 instead of its former group, and took 94's readingMinutes.
    adjust: editAttributes((attributes) => {
      Object.assign(attributes, { readingMinutes: null, updatedAt: '<now>' });
      attributes.localizations = { data: [{ id: 94, attributes: { title: 'Linked at birth', locale: 'en' } }] };
    }),
  },
  // Article 52 was written with viewsTotal "9007199254740993"; article 1 holds it in the fixture.
  // The reference's machine runs in UTC: the same instant with the zone written is what it stored.
  { seq: 229, reason: W16, ...refused(['scheduledAt']), repair: { request: withDataValue(['scheduledAt'], '2024-06-01T14:00:00Z') } },
  { seq: 230, reason: W17, ...refused(['publishDate']), repair: { request: withoutData(['publishDate']), adjust: attributeReads('publishDate', null) } },
  { seq: 234, reason: W17, ...refused(['description']), repair: { request: withoutData(['description']), adjust: attributeReads('description', null) } },
  { seq: 247, reason: W18, ...refused(['relatedRestaurants']), repair: { request: withoutData(['relatedRestaurants']) } },
  { seq: 248, reason: W19, ...refused(['headerImage']), repair: { request: withoutData(['headerImage']), adjust: attributeReads('headerImage', { data: null }) } },
  // The reference tells this token that file 999 does not exist (and stored file 1 just before).
  { seq: 249, reason: W19, ...refused(['headerImage']) },
  ...[5, 138, 142, 189, 208].map((seq) => ({ seq, reason: D8, adjust: attributeReads('viewsTotal', '9007199254740993') })),
];

/** The deviations by seq; throws when one names a seq twice. */
export function deviationsBySeq(deviations: readonly Deviation[] = DEVIATIONS): Map<number, Deviation> {
  const bySeq = new Map<number, Deviation>();
  for (const deviation of deviations) {
    if (bySeq.has(deviation.seq)) throw new Error(`deviations.ts: seq ${deviation.seq} is listed twice`);
    bySeq.set(deviation.seq, deviation);
  }
  return bySeq;
}
