// Who may read what: types the public role (or a restricted token) may not read, at the root and
// nested; private and password attributes; credentials that are wrong.
import { group } from './build.mjs';

export const accessOperations = group('access', [
  { name: 'restaurants-list-public', query: '{ restaurants { data { id } } }' },
  { name: 'restaurants-list-full-access', auth: 'full-access', query: '{ restaurants(sort: "id", pagination: { limit: 3 }) { data { id attributes { name } } } }' },
  { name: 'roles-list-public', query: '{ usersPermissionsRoles { data { id } } }' },
  { name: 'roles-list-full-access', auth: 'full-access', query: '{ usersPermissionsRoles(sort: "id") { data { id attributes { name type users { data { id } } } } } }' },
  { name: 'role-permissions-full-access', auth: 'full-access', query: '{ usersPermissionsRole(id: 2) { data { id attributes { permissions(pagination: { limit: 3 }, sort: "id") { data { id attributes { action } } } } } } }' },
  { name: 'upload-folders-public', query: '{ uploadFolders { data { id } } }' },
  { name: 'upload-folders-full-access', auth: 'full-access', query: '{ uploadFolders { data { id attributes { name path } } } }' },
  { name: 'categories-restricted-token', auth: 'restricted', query: '{ categories(pagination: { limit: 2 }) { data { id } } }' },
  { name: 'category-by-id-restricted-token', auth: 'restricted', query: '{ category(id: 1) { data { id } } }' },
  { name: 'files-restricted-token', auth: 'restricted', query: '{ uploadFiles { data { id } } }' },
  { name: 'users-restricted-token', auth: 'restricted', query: '{ usersPermissionsUsers { data { id } } }' },
  { name: 'article-media-restricted-token', auth: 'restricted', query: '{ article(id: 1) { data { id attributes { headerImage { data { id } } gallery { data { id } } } } } }' },
  { name: 'nested-category-articles-restricted', auth: 'restricted', query: '{ articles(filters: { id: { in: [1, 2] } }) { data { id attributes { category { data { id attributes { articles(pagination: { limit: 1 }) { data { id } } } } } } } } }' },
  { name: 'forbidden-root-and-nested', query: '{ restaurants { data { id } } articles(filters: { id: { in: [1, 2] } }) { data { id attributes { relatedRestaurants { data { id } } } } } }' },
  { name: 'forbidden-media-in-zone-part', auth: 'restricted', query: '{ article(id: 1) { data { attributes { blocks { ... on ComponentSharedMedia { file { data { id } } } ... on ComponentSharedSlider { files { data { id } } } } } } } }' },
  { name: 'bad-token', authorization: 'Bearer not-a-token', query: '{ articles(pagination: { limit: 1 }) { data { id } } }' },
  { name: 'malformed-authorization', authorization: 'Basic abc', query: '{ articles(pagination: { limit: 1 }) { data { id } } }' },
  { name: 'empty-bearer', authorization: 'Bearer ', query: '{ articles(pagination: { limit: 1 }) { data { id } } }' },
]);

export const privateOperations = group('private', [
  { name: 'accessCode-selected', query: '{ article(id: 1) { data { id attributes { title accessCode } } } }' },
  { name: 'accessCode-in-list', query: '{ articles(filters: { id: { in: [1, 2, 11] } }) { data { id attributes { accessCode } } } }' },
  { name: 'accessCode-full-access', auth: 'full-access', query: '{ article(id: 1) { data { id attributes { accessCode } } } }' },
  { name: 'internalNotes-not-in-schema', query: '{ article(id: 1) { data { id attributes { internalNotes } } } }' },
  { name: 'user-password-not-in-schema', query: '{ usersPermissionsUser(id: 1) { data { attributes { password } } } }' },
  { name: 'user-resetPasswordToken-not-in-schema', query: '{ usersPermissionsUser(id: 1) { data { attributes { resetPasswordToken } } } }' },
  { name: 'user-filter-confirmationToken', query: '{ usersPermissionsUsers(filters: { confirmationToken: { null: true } }) { data { id } } }' },
  { name: 'accessCode-sort', query: '{ articles(sort: "accessCode") { data { id } } }' },
  { name: 'internalNotes-in-nested-filters', query: '{ category(id: 1) { data { attributes { articles(filters: { internalNotes: { notNull: true } }) { data { id } } } } } }' },
  { name: 'createdBy-not-in-schema', query: '{ article(id: 1) { data { attributes { createdBy { data { id } } } } } }' },
]);
