// Small builders for the operations of kit.mjs, so that each entry states only what it tests.

/** Ids and the total of a list: `{ <field>(<args>) { data { id } meta { pagination { total } } } }`. */
export function ids(field, args = '', select = 'data { id } meta { pagination { total } }') {
  return `{ ${field}${args ? `(${args})` : ''} { ${select} } }`;
}

/** The operations of a group, each named `<group>/<name>`. */
export function group(prefix, entries) {
  return entries.map((entry) => ({ ...entry, name: `${prefix}/${entry.name}` }));
}

/** Articles matching `filters` (GraphQL input text), all on one page. */
export function articlesWhere(filters, extra = '') {
  return ids('articles', `filters: ${filters}, pagination: { pageSize: 60 }${extra}`);
}
