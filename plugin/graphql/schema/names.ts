/**
 * The names @strapi/plugin-graphql 4.26.2 gives a model's types and operations
 * (server/src/services/utils/naming.ts): `Article`, `ArticleEntityResponse`, `articles`,
 * `ComponentSharedSeo`, `ENUM_ARTICLE_KIND`, `ArticleBlocksDynamicZone`. Strapi builds them with
 * lodash's camelCase; strapiCamelCase below splits words exactly as lodash does for ASCII names
 * (`i18n` → `i18N`, `hero-2col` → `hero2Col`, `canonicalURL` → `canonicalUrl`).
 */
import slugify from '@sindresorhus/slugify';
import type { SchemaModel } from './models.js';

/** lodash's unicodeWords for ASCII text: humps, upper-case runs, ordinals and digit runs are words. */
const WORDS = /[A-Z]?[a-z]+(?=[^A-Za-z0-9]|[A-Z]|$)|[A-Z]+(?=[^A-Za-z0-9]|[A-Z][a-z]|$)|[A-Z]?[a-z]+|[A-Z]+|\d*(?:1ST|2ND|3RD|(?![123])\dTH)(?=\b|[a-z_])|\d*(?:1st|2nd|3rd|(?![123])\dth)(?=\b|[A-Z_])|\d+/g;
/** When none of these occurs, lodash splits on anything but letters and digits only. */
const HAS_HUMPS = /[a-z][A-Z]|[A-Z]{2}[a-z]|[0-9][a-zA-Z]|[a-zA-Z][0-9]|[^a-zA-Z0-9 ]/;

function words(text: string): string[] {
  return (HAS_HUMPS.test(text) ? text.match(WORDS) : text.match(/[A-Za-z0-9]+/g)) ?? [];
}

export const upperFirst = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);
export const lowerFirst = (text: string): string => text.charAt(0).toLowerCase() + text.slice(1);

/** lodash's `camelCase`: `meta-social` → `metaSocial`, `SEO` → `seo`. */
export function strapiCamelCase(text: string): string {
  return words(text.replace(/['\u2019]/g, ''))
    .map((word, index) => (index === 0 ? word.toLowerCase() : upperFirst(word.toLowerCase())))
    .join('');
}

const pascal = (text: string): string => upperFirst(strapiCamelCase(text));

/** The plugin of a `plugin::<plugin>.<name>` uid, '' for the app's own (`api::`) types. */
function pluginOf(uid: string): string {
  return /^plugin::([^.]+)\./.exec(uid)?.[1] ?? '';
}

/** A content type's base name: `Article`, `UsersPermissionsUser`, `I18NLocale`; `plural` for `Articles`. */
export function typeName(model: SchemaModel, plural = false): string {
  return `${pascal(pluginOf(model.uid))}${pascal(plural ? model.pluralName! : model.singularName)}`;
}

/** A component's global id: `shared.meta-social` → `ComponentSharedMetaSocial`. */
export function componentName(model: SchemaModel): string {
  return pascal(`component_${model.uid}`);
}

/** The object type of a model's attributes: its base name, or a component's global id. */
export function baseName(model: SchemaModel): string {
  return model.modelType === 'component' ? componentName(model) : typeName(model);
}

export const entityName = (model: SchemaModel): string => `${typeName(model)}Entity`;
export const entityResponseName = (model: SchemaModel): string => `${typeName(model)}EntityResponse`;
export const entityResponseCollectionName = (model: SchemaModel): string => `${typeName(model)}EntityResponseCollection`;
export const relationResponseCollectionName = (model: SchemaModel): string => `${typeName(model)}RelationResponseCollection`;
export const filtersInputName = (model: SchemaModel): string => `${baseName(model)}FiltersInput`;
export const inputName = (model: SchemaModel): string => `${baseName(model)}Input`;
/** `StringFilterInput` for the GraphQL scalar `String`. */
export const scalarFilterInputName = (scalar: string): string => `${scalar}FilterInput`;

/** `ENUM_ARTICLE_KIND`, `ENUM_COMPONENTRESTAURANTOPENINGHOUR_DAY`. */
export function enumName(model: SchemaModel, attribute: string): string {
  return `ENUM_${baseName(model).toUpperCase()}_${attribute.toUpperCase()}`;
}

/** An enumeration value as a GraphQL enum value name (Strapi's toRegressedEnumValue). */
export function enumValueName(value: string): string {
  return slugify(value, { decamelize: false, lowercase: false, separator: '_' });
}

/** `ArticleBlocksDynamicZone`; its input scalar is `ArticleBlocksDynamicZoneInput`. */
export function zoneName(model: SchemaModel, attribute: string): string {
  return `${typeName(model)}${pascal(attribute)}DynamicZone`;
}

/** `article` (one entry, or a single type), `articles` (a list). */
export const findOneQueryName = (model: SchemaModel): string => lowerFirst(typeName(model));
export const findQueryName = (model: SchemaModel): string => lowerFirst(typeName(model, true));
export const mutationName = (action: 'create' | 'update' | 'delete', model: SchemaModel): string => `${action}${typeName(model)}`;
export const createLocalizationName = (model: SchemaModel): string => `create${typeName(model)}Localization`;
