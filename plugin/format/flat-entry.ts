/**
 * The flat entity Strapi's plugins answer (users-permissions' users, a new localization) from the
 * REST envelope of one entry: `{ data: { id, attributes } }` → `{ id, …attributes }`, each
 * populated relation or media (`{ data }`) flattened alike.
 */

type Envelope = { readonly id: number; readonly attributes: Record<string, unknown> };

function isEnvelope(value: unknown): value is Envelope {
  return typeof value === 'object' && value !== null && 'id' in value && 'attributes' in value;
}

/** A `{ data }` wrapper of a populated relation or media, with nothing else in it. */
function isRelation(value: unknown): value is { readonly data: unknown } {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 1 && 'data' in value;
}

function flatValue(value: unknown): unknown {
  if (!isRelation(value)) return value;
  const { data } = value;
  if (Array.isArray(data)) return data.map((item) => (isEnvelope(item) ? flatEntry(item) : item));
  return isEnvelope(data) ? flatEntry(data) : data;
}

/** One entry of the envelope, flat. */
export function flatEntry(entry: Envelope): Record<string, unknown> {
  const flat: Record<string, unknown> = { id: entry.id };
  for (const [name, value] of Object.entries(entry.attributes)) flat[name] = flatValue(value);
  return flat;
}

/** The flat entity of an answer body `{ data: { id, attributes }, meta }`; null when `data` is. */
export function flatAnswer(body: Buffer | string): Record<string, unknown> | null {
  const { data } = JSON.parse(body.toString()) as { data: unknown };
  return isEnvelope(data) ? flatEntry(data) : null;
}
