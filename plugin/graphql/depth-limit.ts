/**
 * The depth limit (`depthLimit`, the plugin's option): an operation whose selections nest deeper
 * than it is refused at validation, before anything runs. Depth counts fields below the root field
 * (the root's own fields are depth 0, as graphql-depth-limit counts them), through fragments;
 * introspection fields are not counted.
 */
import { GraphQLError, Kind, type ASTVisitor, type FragmentDefinitionNode, type SelectionSetNode, type ValidationContext } from 'graphql';

export function depthLimitRule(maxDepth: number): (context: ValidationContext) => ASTVisitor {
  return (context) => {
    const fragments = new Map<string, FragmentDefinitionNode>();
    for (const definition of context.getDocument().definitions) {
      if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
    }
    return {
      OperationDefinition(operation) {
        const depth = depthOf(operation.selectionSet, fragments, 0, new Set());
        if (depth > maxDepth) {
          const name = operation.name ? `'${operation.name.value}'` : 'the operation';
          context.reportError(new GraphQLError(`${name} exceeds maximum operation depth of ${maxDepth}`, { nodes: [operation] }));
        }
      },
    };
  };
}

function depthOf(set: SelectionSetNode, fragments: ReadonlyMap<string, FragmentDefinitionNode>, depth: number, seen: ReadonlySet<string>): number {
  let deepest = depth;
  for (const selection of set.selections) {
    if (selection.kind === Kind.FIELD) {
      if (selection.name.value.startsWith('__')) continue;
      if (selection.selectionSet) deepest = Math.max(deepest, depthOf(selection.selectionSet, fragments, depth + 1, seen));
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      deepest = Math.max(deepest, depthOf(selection.selectionSet, fragments, depth, seen));
    } else {
      const fragment = fragments.get(selection.name.value);
      if (fragment && !seen.has(fragment.name.value)) {
        deepest = Math.max(deepest, depthOf(fragment.selectionSet, fragments, depth, new Set([...seen, fragment.name.value])));
      }
    }
  }
  return deepest;
}
