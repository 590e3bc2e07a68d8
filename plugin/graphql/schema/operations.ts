/**
 * The root fields Strapi generates per content type (builders/queries, builders/mutations and
 * the i18n plugin's extension):
 *   collection type: `article(id)`, `articles(filters, pagination, sort, publicationState)`,
 *     `createArticle(data)`, `updateArticle(id, data)`, `deleteArticle(id)`;
 *   single type: `global(publicationState)`, `updateGlobal(data)`, `deleteGlobal`;
 *   localized type: `locale: I18NLocaleCode` on each, and `createArticleLocalization(id, data)`.
 * The users-permissions permission has no root field; the i18n locale no mutation; the user and
 * role only the find queries here (their mutations are the users-permissions plugin's own).
 */
import { ROLE_UID, USER_UID } from '../../schema/users-permissions.js';
import { isContentType, type SchemaBuild } from './build.js';
import { LOCALE_UID, PERMISSION_UID, type SchemaModel } from './models.js';
import {
  createLocalizationName,
  entityResponseCollectionName,
  entityResponseName,
  filtersInputName,
  findOneQueryName,
  findQueryName,
  inputName,
  mutationName,
} from './names.js';
import { listArguments, publicationStateArgument } from './scalars.js';
import type { OperationAction } from './targets.js';
import type { FieldSpec, InputSpec } from './type-table.js';

const WITHOUT_QUERIES = new Set([PERMISSION_UID]);
const WITHOUT_MUTATIONS = new Set([PERMISSION_UID, LOCALE_UID, USER_UID, ROLE_UID]);

/** Root fields by name, with what each stands for. */
export type RootFields = Map<string, { readonly spec: FieldSpec; readonly uid: string; readonly action: OperationAction; readonly single: boolean }>;

type Args = Record<string, string | InputSpec>;

function add(fields: RootFields, name: string, model: SchemaModel, action: OperationAction, type: string, args: Args): void {
  if (fields.has(name)) throw new Error(`two GraphQL root fields would be named ${name} (${fields.get(name)!.uid} and ${model.uid})`);
  const localized: Args = model.localized ? { locale: 'I18NLocaleCode' } : {};
  fields.set(name, { spec: { type, args: { ...args, ...localized } }, uid: model.uid, action, single: model.kind === 'singleType' });
}

export function contentTypeQueries(build: SchemaBuild): RootFields {
  const fields: RootFields = new Map();
  for (const model of build.models.filter(isContentType)) {
    if (WITHOUT_QUERIES.has(model.uid)) continue;
    const publication: Args = model.draftAndPublish ? { publicationState: publicationStateArgument() } : {};
    if (model.kind === 'singleType') {
      add(fields, findOneQueryName(model), model, 'find', entityResponseName(model), publication);
      continue;
    }
    add(fields, findOneQueryName(model), model, 'findOne', entityResponseName(model), { id: 'ID' });
    add(fields, findQueryName(model), model, 'find', entityResponseCollectionName(model), listArguments(filtersInputName(model), model.draftAndPublish));
  }
  return fields;
}

export function contentTypeMutations(build: SchemaBuild): RootFields {
  const fields: RootFields = new Map();
  for (const model of build.models.filter(isContentType)) {
    if (WITHOUT_MUTATIONS.has(model.uid)) continue;
    const response = entityResponseName(model);
    const data = `${inputName(model)}!`;
    if (model.kind === 'singleType') {
      add(fields, mutationName('update', model), model, 'update', response, { data });
      add(fields, mutationName('delete', model), model, 'delete', response, {});
    } else {
      add(fields, mutationName('create', model), model, 'create', response, { data });
      add(fields, mutationName('update', model), model, 'update', response, { id: 'ID!', data });
      add(fields, mutationName('delete', model), model, 'delete', response, { id: 'ID!' });
    }
    if (model.localized) add(fields, createLocalizationName(model), model, 'createLocalization', response, { id: 'ID', data: inputName(model) });
  }
  return fields;
}
