/**
 * The fields a selection set asks of an object of one type, by response key, in order
 * (GraphQL's CollectFields): named and inline fragments whose type condition applies are expanded,
 * `@skip` and `@include` are obeyed, and fields of one key are grouped so that their
 * sub-selections merge.
 */
import {
  GraphQLIncludeDirective,
  GraphQLSkipDirective,
  Kind,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLSchema,
  type SelectionSetNode,
  isAbstractType,
  isObjectType,
} from 'graphql';
import { getDirectiveValues } from 'graphql/execution/values.js';

export interface OperationContext {
  readonly schema: GraphQLSchema;
  readonly fragments: Readonly<Record<string, FragmentDefinitionNode>>;
  readonly variables: Readonly<Record<string, unknown>>;
}

/** Response key → the field nodes asking for it, for an object of type `typeName`. */
export function collectFields(context: OperationContext, typeName: string, selectionSets: readonly SelectionSetNode[]): Map<string, FieldNode[]> {
  const fields = new Map<string, FieldNode[]>();
  const visited = new Set<string>();
  for (const set of selectionSets) collectInto(context, typeName, set, fields, visited);
  return fields;
}

function collectInto(context: OperationContext, typeName: string, set: SelectionSetNode, fields: Map<string, FieldNode[]>, visited: Set<string>): void {
  for (const selection of set.selections) {
    if (!included(context, selection)) continue;
    switch (selection.kind) {
      case Kind.FIELD: {
        const key = selection.alias?.value ?? selection.name.value;
        fields.set(key, [...(fields.get(key) ?? []), selection]);
        break;
      }
      case Kind.INLINE_FRAGMENT:
        if (!selection.typeCondition || applies(context, selection.typeCondition.name.value, typeName)) {
          collectInto(context, typeName, selection.selectionSet, fields, visited);
        }
        break;
      case Kind.FRAGMENT_SPREAD: {
        const name = selection.name.value;
        const fragment = context.fragments[name];
        if (visited.has(name) || !fragment) break;
        visited.add(name);
        if (applies(context, fragment.typeCondition.name.value, typeName)) collectInto(context, typeName, fragment.selectionSet, fields, visited);
        break;
      }
    }
  }
}

function included(context: OperationContext, node: FieldNode | SelectionSetNode['selections'][number]): boolean {
  if (getDirectiveValues(GraphQLSkipDirective, node, context.variables)?.if === true) return false;
  return getDirectiveValues(GraphQLIncludeDirective, node, context.variables)?.if !== false;
}

/** Whether a fragment on `condition` applies to an object of type `typeName` (the same type, or a union holding it). */
function applies(context: OperationContext, condition: string, typeName: string): boolean {
  if (condition === typeName) return true;
  const conditionType = context.schema.getType(condition);
  const objectType = context.schema.getType(typeName);
  return !!conditionType && isAbstractType(conditionType) && isObjectType(objectType) && context.schema.isSubType(conditionType, objectType);
}

/** The sub-selections of a group of field nodes, to collect together. */
export function subSelections(nodes: readonly FieldNode[]): SelectionSetNode[] {
  return nodes.flatMap((node) => (node.selectionSet ? [node.selectionSet] : []));
}
