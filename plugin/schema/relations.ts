/**
 * Relations of the schema: checking that both sides of a bidirectional relation agree, and the
 * link table each owning side creates, named exactly as Strapi v4 names it.
 */
import { closestName } from './closest-name.js';
import type { RelationAttributeDocument } from './document.js';
import type { Declared } from './declared.js';
import { FILE_UID, type LinkPath, type LinkTable, type RelationAttribute } from './registry.js';
import { joinColumnName, linkTableName, orderColumnName } from '../storage/naming.js';

const COUNTERPART: Record<string, string> = {
  oneToOne: 'oneToOne',
  manyToOne: 'oneToMany',
  oneToMany: 'manyToOne',
  manyToMany: 'manyToMany',
};

export function checkRelation(
  entry: Declared,
  name: string,
  attribute: RelationAttributeDocument,
  declared: Map<string, Declared>,
  resolveTarget: (target: string) => string | null,
  at: (key: string, message: string) => void,
): void {
  const targetUid = resolveTarget(attribute.target);
  if (!targetUid) {
    at('target', unknownTargetMessage(attribute.target, declared));
    return;
  }
  if (attribute.inversedBy && attribute.mappedBy) {
    at('mappedBy', 'a relation has either inversedBy or mappedBy, not both');
    return;
  }
  const other = attribute.inversedBy ?? attribute.mappedBy;
  if (!other) return;
  if (entry.isComponent) {
    at(attribute.inversedBy ? 'inversedBy' : 'mappedBy', 'relations declared in components are one-way');
    return;
  }
  const target = declared.get(targetUid);
  const counterpart = target?.attributes[other];
  // The other side is declared but invalid, and reported as such already.
  if (!counterpart && target?.loaded.invalidAttributes?.has(other)) return;
  const key = attribute.inversedBy ? 'inversedBy' : 'mappedBy';
  if (!counterpart || counterpart.type !== 'relation') {
    at(key, `"${other}" is not a relation attribute of ${targetUid}`);
    return;
  }
  const pointsBack = resolveTarget(counterpart.target) === entry.uid;
  const agrees = attribute.inversedBy ? counterpart.mappedBy === name : counterpart.inversedBy === name;
  if (!pointsBack || !agrees) {
    const expected = attribute.inversedBy ? `mappedBy: ${name}` : `inversedBy: ${name}`;
    at(key, `${targetUid}.${other} must target ${entry.uid} with "${expected}"`);
    return;
  }
  if (COUNTERPART[attribute.relation] !== counterpart.relation) {
    at('relation', `${attribute.relation} does not pair with ${targetUid}.${other} (${counterpart.relation}); expected ${COUNTERPART[attribute.relation]} there`);
  }
}

/** Names the schema's own content type nearest to the target, written the way the target was (uid or singular name). */
function unknownTargetMessage(target: string, declared: Map<string, Declared>): string {
  const contentTypes = [...declared.values()].filter((entry) => !entry.isComponent);
  const usersPermissions = usersPermissionsHint(target, contentTypes);
  if (usersPermissions) return `unknown target "${target}"; ${usersPermissions}`;
  const names = target.includes('::') ? [...contentTypes.map((entry) => entry.uid), FILE_UID] : contentTypes.map((entry) => entry.singularName);
  const close = closestName(target, names);
  if (close) return `unknown target "${target}"; did you mean "${close}"?`;
  return `unknown target "${target}"; no content type of this schema has that uid or singular name`;
}

/**
 * The users-permissions types are the ones a schema file most often means without naming: a
 * `user.yaml` without `uid:` declares `api::user.user`, since only an explicit uid makes a type a
 * plugin's. Says which line to add, or which files to write.
 */
function usersPermissionsHint(target: string, contentTypes: readonly Declared[]): string | null {
  const stock = USERS_PERMISSIONS_TABLES[target];
  if (!stock) return null;
  const meant = contentTypes.find((entry) => entry.tableName === stock.table || entry.singularName === stock.singularName);
  if (meant) return `${meant.loaded.file} declares "${meant.uid}": add "uid: ${target}" at its top level to make it the users-permissions ${stock.singularName}`;
  return `no content type declares it: the users-permissions user and role are content-types/user.yaml and content-types/role.yaml with "uid: plugin::users-permissions.user" and "uid: plugin::users-permissions.role", as \`content-api init --users\` writes them`;
}

const USERS_PERMISSIONS_TABLES: Readonly<Record<string, { readonly table: string; readonly singularName: string }>> = {
  'plugin::users-permissions.user': { table: 'up_users', singularName: 'user' },
  'plugin::users-permissions.role': { table: 'up_roles', singularName: 'role' },
};

/** Strapi's createJoinTable: the owning side's link table. */
export function ownerLinkTable(
  ownerTable: string,
  ownerSingular: string,
  attributeName: string,
  relation: string,
  bidirectional: boolean,
  targetTable: string,
  targetSingular: string,
): LinkTable {
  const joinColumn = joinColumnName(ownerSingular);
  let inverseJoinColumn = joinColumnName(targetSingular);
  if (joinColumn === inverseJoinColumn) inverseJoinColumn = `inv_${inverseJoinColumn}`;
  const orderColumn = orderColumnName(targetSingular);
  let inverseOrderColumn = orderColumnName(ownerSingular);
  if (relation === 'manyToMany' && orderColumn === inverseOrderColumn) inverseOrderColumn = `inv_${inverseOrderColumn}`;
  const anyToMany = relation === 'oneToMany' || relation === 'manyToMany';
  const manyToAny = relation === 'manyToOne' || relation === 'manyToMany';
  return {
    name: linkTableName(ownerTable, attributeName),
    ownerTable,
    targetTable,
    joinColumn,
    inverseJoinColumn,
    orderColumn: anyToMany ? orderColumn : null,
    inverseOrderColumn: bidirectional && manyToAny ? inverseOrderColumn : null,
  };
}

export function buildRelation(
  entry: Declared,
  name: string,
  doc: RelationAttributeDocument,
  declared: Map<string, Declared>,
  targetUid: string,
): RelationAttribute {
  const target: Pick<Declared, 'tableName' | 'singularName' | 'attributes'> =
    targetUid === FILE_UID ? { tableName: 'files', singularName: 'file', attributes: {} } : declared.get(targetUid)!;
  const base = {
    kind: 'relation' as const,
    name,
    relation: doc.relation,
    target: targetUid,
    toMany: doc.relation === 'oneToMany' || doc.relation === 'manyToMany',
    hidden: doc.private === true,
    inversedBy: doc.inversedBy ?? null,
    mappedBy: doc.mappedBy ?? null,
    implicit: false,
    required: doc.required === true,
  };
  if (doc.mappedBy) {
    const owner = target.attributes[doc.mappedBy] as RelationAttributeDocument;
    const table = ownerLinkTable(target.tableName, target.singularName, doc.mappedBy, owner.relation, true, entry.tableName, entry.singularName);
    const link: LinkPath = {
      table: table.name,
      sourceColumn: table.inverseJoinColumn,
      targetColumn: table.joinColumn,
      orderColumn: table.inverseOrderColumn,
    };
    return { ...base, link, linkTable: null };
  }
  const table = ownerLinkTable(entry.tableName, entry.singularName, name, doc.relation, Boolean(doc.inversedBy), target.tableName, target.singularName);
  return { ...base, link: ownerLinkPath(table), linkTable: table };
}

function ownerLinkPath(table: LinkTable): LinkPath {
  return { table: table.name, sourceColumn: table.joinColumn, targetColumn: table.inverseJoinColumn, orderColumn: table.orderColumn };
}

/** i18n's implicit `localizations`: a one-way oneToMany to the same type. */
export function localizationsRelation(entry: Declared): RelationAttribute {
  const table = ownerLinkTable(entry.tableName, entry.singularName, 'localizations', 'oneToMany', false, entry.tableName, entry.singularName);
  return {
    kind: 'relation',
    name: 'localizations',
    relation: 'oneToMany',
    target: entry.uid,
    toMany: true,
    hidden: false,
    inversedBy: null,
    mappedBy: null,
    link: ownerLinkPath(table),
    linkTable: table,
    implicit: true,
    required: false,
  };
}

