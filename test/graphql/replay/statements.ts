/**
 * How many statements a query operation's answer should have cost: one per operation answered
 * with data (a batch holds several), none for an operation that only introspects the schema
 * (graphql-js answers it from the schema alone).
 */
import { Kind, parse } from 'graphql';

function introspectionOnly(query: unknown): boolean {
  if (typeof query !== 'string') return false;
  try {
    const document = parse(query);
    return document.definitions.every(
      (definition) =>
        definition.kind !== Kind.OPERATION_DEFINITION ||
        definition.selectionSet.selections.every((selection) => selection.kind === Kind.FIELD && selection.name.value.startsWith('__') && selection.name.value !== '__typename'),
    );
  } catch {
    return false;
  }
}

/** The statements expected for `answer`, the JSON the package gave to the operations of `requestBody`. */
export function expectedStatements(requestBody: string | undefined, query: unknown, answer: unknown): number {
  const answered = (item: unknown, sent: unknown) => (item && typeof item === 'object' && 'data' in item && !introspectionOnly(sent) ? 1 : 0);
  if (Array.isArray(answer)) {
    const sent = parseBody(requestBody);
    return answer.reduce<number>((sum, item, index) => sum + answered(item, Array.isArray(sent) ? (sent[index] as { query?: unknown })?.query : undefined), 0);
  }
  return answered(answer, query);
}

function parseBody(body: string | undefined): unknown {
  try {
    return body === undefined ? undefined : JSON.parse(body);
  } catch {
    return undefined;
  }
}
