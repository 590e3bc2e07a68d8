/**
 * Errors as Strapi's GraphQL plugin answers them (its formatGraphqlError over Apollo Server 3): the
 * API's error under `extensions.error` ({ name, message, details }) with Apollo's code —
 * `FORBIDDEN` for 401 and 403, `BAD_USER_INPUT` for a validation error, `STRAPI_<NAME>` for other
 * application errors; anything else is an `INTERNAL_SERVER_ERROR` whose message says nothing more.
 * GraphQL's own errors (graphql-js: variables, execution) keep their locations and path.
 */
import { GraphQLError, type ASTNode } from 'graphql';
import { ApiError } from '../errors.js';

export interface GraphqlErrorJson {
  readonly message: string;
  readonly locations?: readonly { line: number; column: number }[];
  readonly path?: readonly (string | number)[];
  readonly extensions: Readonly<Record<string, unknown>>;
}

export function graphqlError(error: unknown, node: ASTNode | null, path: readonly (string | number)[] | null): GraphqlErrorJson {
  const located = {
    ...(node?.loc ? { locations: [node.loc.startToken].map((token) => ({ line: token.line, column: token.column })) } : {}),
    ...(path ? { path } : {}),
  };
  if (error instanceof ApiError && error.expose) {
    // The plugin answers its own new error for the API's: no locations, no path; its scope check says "Forbidden access".
    const message = error.name === 'ForbiddenError' && error.message === 'Forbidden' ? 'Forbidden access' : error.message;
    const extension = { error: { name: error.name, message, details: error.details } };
    return { message, extensions: { ...extension, code: codeOf(error) } };
  }
  if (error instanceof GraphQLError) return { message: error.message, ...located, extensions: { ...error.extensions } };
  return { message: 'Internal Server Error', ...located, extensions: { code: 'INTERNAL_SERVER_ERROR' } };
}

function codeOf(error: ApiError): string {
  if (error.status === 401 || error.status === 403) return 'FORBIDDEN';
  if (error.name === 'ValidationError') return 'BAD_USER_INPUT';
  return `STRAPI_${error.name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase()}`;
}
