/**
 * Strapi v4's naming rules for tables and columns. An existing Strapi database is served
 * unchanged, so these must produce exactly the names Strapi 4.26 writes.
 */

/**
 * lodash's `snakeCase` for identifiers: words are split at lower→upper transitions, before an
 * upper-case letter followed by a lower-case one (`canonicalURL` → `canonical_url`,
 * `XMLHttp` → `xml_http`), around digit runs (`h1Title` → `h_1_title`) and at any other character.
 */
export function snakeCase(name: string): string {
  const words = name.match(/[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+/g) ?? [];
  return words.map((word) => word.toLowerCase()).join('_');
}

/** The column holding a scalar attribute. */
export function columnName(attributeName: string): string {
  return snakeCase(attributeName);
}

/**
 * `<ownerTable>_<attribute>_links`, snake-cased as a whole as Strapi does: a hyphen or a digit run
 * in the table's name splits words too (`components_sections_blog-list` →
 * `components_sections_blog_list_<attribute>_links`).
 */
export function linkTableName(ownerTable: string, attributeName: string): string {
  return snakeCase(`${ownerTable}_${attributeName}_links`);
}

/** `<singular>_id`; the target side of a self relation is prefixed with `inv_`. */
export function joinColumnName(singularName: string): string {
  return snakeCase(`${singularName}_id`);
}

/** `<singular>_order` */
export function orderColumnName(singularName: string): string {
  return snakeCase(`${singularName}_order`);
}

/** The polymorphic join table between an entity (or component) table and its components. */
export function componentJoinTableName(ownerTable: string): string {
  return `${ownerTable}_components`;
}
