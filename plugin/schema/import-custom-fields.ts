/**
 * The importer's custom-field step: each `"type": "customField"` attribute gets the type its
 * field stores, as Strapi does at boot. The type comes from, in order: the user's explicit choice
 * (`--custom-field uid=type`), the code that registers the field in the app, the column the app's
 * database holds for it. A field none of them settles stops the import with one error per field
 * that names the option to give.
 */
import type { Knex } from 'knex';
import { columnName } from '../storage/naming.js';
import { columnTypeInDatabase, CUSTOM_FIELD_TYPES, findRegisteredCustomFields, isCustomFieldType, type CustomFieldType } from './custom-fields.js';
import type { ImportChange, StrapiSchema } from './import-strapi.js';

export interface CustomFieldChoices {
  /** Stored types by custom field uid, given by the user: they win over what the app's code says. */
  readonly customFields?: Readonly<Record<string, string>>;
  /** The app's database: a field no code registers takes the type of its column there. */
  readonly database?: Knex;
}

/** The import cannot go on: custom fields whose stored type nothing says. */
export class UnresolvedCustomFieldsError extends Error {
  constructor(readonly fields: readonly { uid: string; usedAt: string[] }[]) {
    super(
      fields
        .map(({ uid, usedAt }) => `custom field ${uid} (${usedAt.join(', ')}): no plugin installed in the app registers it; give its stored type with --custom-field ${uid}=<type> (${CUSTOM_FIELD_TYPES.join(', ')}), or --database <url> of the app's database`)
        .join('\n'),
    );
    this.name = 'UnresolvedCustomFieldsError';
  }
}

interface CustomFieldUse {
  schema: StrapiSchema;
  name: string;
  attribute: Record<string, unknown>;
  uid: string;
}

/**
 * Give every custom field of `schemas` its stored type, in place; returns one change per field.
 * @throws UnresolvedCustomFieldsError for the fields nothing settles, an Error for an explicit choice that is no type
 */
export async function resolveCustomFields(appDir: string, schemas: readonly StrapiSchema[], choices: CustomFieldChoices): Promise<ImportChange[]> {
  const uses = schemas.flatMap(customFieldUses);
  if (!uses.length) return [];
  for (const [uid, type] of Object.entries(choices.customFields ?? {})) {
    if (!isCustomFieldType(type)) throw new Error(`--custom-field ${uid}=${type}: a custom field stores one of ${CUSTOM_FIELD_TYPES.join(', ')}`);
  }
  const registered = await findRegisteredCustomFields(appDir);
  const changes: ImportChange[] = [];
  const unresolved = new Map<string, string[]>();
  for (const use of uses) {
    const resolved = await storedType(use, choices, registered);
    if (!resolved) {
      unresolved.set(use.uid, [...(unresolved.get(use.uid) ?? []), `${use.schema.source} ${use.name}`]);
      continue;
    }
    use.attribute.type = resolved.type;
    delete use.attribute.customField;
    changes.push({ file: use.schema.file, path: ['attributes', use.name, 'type'], value: resolved.type, reason: `custom field ${use.uid} stores ${resolved.type} (${resolved.from})` });
  }
  if (unresolved.size) throw new UnresolvedCustomFieldsError([...unresolved].map(([uid, usedAt]) => ({ uid, usedAt })));
  return changes;
}

function customFieldUses(schema: StrapiSchema): CustomFieldUse[] {
  const attributes = (schema.json.attributes ?? {}) as Record<string, Record<string, unknown>>;
  return Object.entries(attributes)
    .filter(([, attribute]) => attribute?.type === 'customField')
    .map(([name, attribute]) => ({ schema, name, attribute, uid: String(attribute.customField) }));
}

async function storedType(use: CustomFieldUse, choices: CustomFieldChoices, registered: Awaited<ReturnType<typeof findRegisteredCustomFields>>): Promise<{ type: CustomFieldType; from: string } | null> {
  const chosen = choices.customFields?.[use.uid];
  if (chosen && isCustomFieldType(chosen)) return { type: chosen, from: 'as --custom-field says' };
  const registration = registered.get(use.uid);
  if (registration) return { type: registration.type, from: `registered in ${registration.source}` };
  const table = use.schema.json.collectionName;
  if (!choices.database || typeof table !== 'string') return null;
  const column = await columnTypeInDatabase(choices.database, table, use.name);
  return column ? { type: column, from: `the type of its column ${table}.${columnName(use.name)} in the database` } : null;
}
