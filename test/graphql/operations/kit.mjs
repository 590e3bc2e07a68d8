// The GraphQL operations recorded from the reference for the conformance kit's app
// (record-operations.mjs) and replayed against the package (operations.test.ts). Each entry:
//   { name, query, variables?, operationName?, method?: 'GET' | 'POST' | …, auth?: 'public' | a
//     token of tokens.mjs, authorization?: a raw Authorization header, body?/rawBody?/contentType?:
//     a request that is not `{ query, variables, operationName }`, kind?: 'query' | 'mutation' }
// Names are unique; queries are sent first, then the mutations in this order.
import { accessOperations, privateOperations } from './access.mjs';
import {
  aliasOperations,
  directiveOperations,
  fragmentOperations,
  introspectionOperations,
  metaOperations,
  multiRootOperations,
  typenameOperations,
  variableOperations,
} from './documents.mjs';
import { filterOperations } from './filters.mjs';
import { entryOperations, localeOperations, paginationOperations, publicationOperations, sortOperations } from './lists.mjs';
import { mutationOperations } from './mutations.mjs';
import { componentOperations, localizationOperations, mediaOperations, relationOperations, zoneOperations } from './nested.mjs';
import { requestErrorOperations } from './request-errors.mjs';

export const operations = [
  ...filterOperations,
  ...paginationOperations,
  ...sortOperations,
  ...publicationOperations,
  ...localeOperations,
  ...entryOperations,
  ...relationOperations,
  ...mediaOperations,
  ...componentOperations,
  ...zoneOperations,
  ...localizationOperations,
  ...aliasOperations,
  ...fragmentOperations,
  ...variableOperations,
  ...directiveOperations,
  ...typenameOperations,
  ...multiRootOperations,
  ...metaOperations,
  ...introspectionOperations,
  ...accessOperations,
  ...privateOperations,
  ...requestErrorOperations,
  ...mutationOperations,
];
