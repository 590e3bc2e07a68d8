/**
 * The types and root fields Strapi's own plugins add to the schema through the GraphQL
 * extension API (their server/graphql files): the media library's `upload`, `multipleUpload`,
 * `updateFileInfo` and `removeFile`; the users-permissions plugin's `me`, `login`, `register`,
 * password and confirmation mutations, and its own user and role mutations.
 */
import { GraphQLInputObjectType, GraphQLObjectType } from 'graphql';
import { FILE_UID } from '../../schema/registry.js';
import { ROLE_UID, USER_UID } from '../../schema/users-permissions.js';
import type { SchemaBuild } from './build.js';
import type { RootFields } from './operations.js';
import type { OperationAction } from './targets.js';
import type { FieldSpec } from './type-table.js';

const OK = { ok: 'Boolean!' };

/** The plugins' object and input types. */
export function addPluginTypes(build: SchemaBuild): void {
  const { table } = build;
  const object = (name: string, fields: Record<string, string>) => table.add(new GraphQLObjectType({ name, fields: () => table.fields(fields) }));
  const input = (name: string, fields: Parameters<typeof table.inputFields>[0]) => table.add(new GraphQLInputObjectType({ name, fields: () => table.inputFields(fields) }));
  input('FileInfoInput', { name: 'String', alternativeText: 'String', caption: 'String' });
  object('UsersPermissionsMe', { id: 'ID!', username: 'String!', email: 'String', confirmed: 'Boolean', blocked: 'Boolean', role: 'UsersPermissionsMeRole' });
  object('UsersPermissionsMeRole', { id: 'ID!', name: 'String!', description: 'String', type: 'String' });
  input('UsersPermissionsRegisterInput', { username: 'String!', email: 'String!', password: 'String!' });
  input('UsersPermissionsLoginInput', { identifier: 'String!', password: 'String!', provider: { type: 'String!', defaultValue: 'local' } });
  object('UsersPermissionsPasswordPayload', OK);
  object('UsersPermissionsLoginPayload', { jwt: 'String', user: 'UsersPermissionsMe!' });
  object('UsersPermissionsCreateRolePayload', OK);
  object('UsersPermissionsUpdateRolePayload', OK);
  object('UsersPermissionsDeleteRolePayload', OK);
}

type PluginField = readonly [name: string, uid: string, action: OperationAction, spec: FieldSpec];

const PLUGIN_QUERIES: readonly PluginField[] = [['me', USER_UID, 'me', { type: 'UsersPermissionsMe' }]];

const PASSWORDS = { password: 'String!', passwordConfirmation: 'String!' };

const PLUGIN_MUTATIONS: readonly PluginField[] = [
  ['upload', FILE_UID, 'upload', { type: 'UploadFileEntityResponse!', args: { refId: 'ID', ref: 'String', field: 'String', info: 'FileInfoInput', file: 'Upload!' } }],
  ['multipleUpload', FILE_UID, 'multipleUpload', { type: '[UploadFileEntityResponse]!', args: { refId: 'ID', ref: 'String', field: 'String', files: '[Upload]!' } }],
  ['updateFileInfo', FILE_UID, 'updateFileInfo', { type: 'UploadFileEntityResponse!', args: { id: 'ID!', info: 'FileInfoInput' } }],
  ['removeFile', FILE_UID, 'removeFile', { type: 'UploadFileEntityResponse', args: { id: 'ID!' } }],
  ['createUsersPermissionsRole', ROLE_UID, 'create', { type: 'UsersPermissionsCreateRolePayload', args: { data: 'UsersPermissionsRoleInput!' }, description: 'Create a new role' }],
  ['updateUsersPermissionsRole', ROLE_UID, 'update', { type: 'UsersPermissionsUpdateRolePayload', args: { id: 'ID!', data: 'UsersPermissionsRoleInput!' }, description: 'Update an existing role' }],
  ['deleteUsersPermissionsRole', ROLE_UID, 'delete', { type: 'UsersPermissionsDeleteRolePayload', args: { id: 'ID!' }, description: 'Delete an existing role' }],
  ['createUsersPermissionsUser', USER_UID, 'create', { type: 'UsersPermissionsUserEntityResponse!', args: { data: 'UsersPermissionsUserInput!' }, description: 'Create a new user' }],
  ['updateUsersPermissionsUser', USER_UID, 'update', { type: 'UsersPermissionsUserEntityResponse!', args: { id: 'ID!', data: 'UsersPermissionsUserInput!' }, description: 'Update an existing user' }],
  ['deleteUsersPermissionsUser', USER_UID, 'delete', { type: 'UsersPermissionsUserEntityResponse!', args: { id: 'ID!' }, description: 'Delete an existing user' }],
  ['login', USER_UID, 'login', { type: 'UsersPermissionsLoginPayload!', args: { input: 'UsersPermissionsLoginInput!' } }],
  ['register', USER_UID, 'register', { type: 'UsersPermissionsLoginPayload!', args: { input: 'UsersPermissionsRegisterInput!' }, description: 'Register a user' }],
  ['forgotPassword', USER_UID, 'forgotPassword', { type: 'UsersPermissionsPasswordPayload', args: { email: 'String!' }, description: 'Request a reset password token' }],
  [
    'resetPassword',
    USER_UID,
    'resetPassword',
    { type: 'UsersPermissionsLoginPayload', args: { ...PASSWORDS, code: 'String!' }, description: 'Reset user password. Confirm with a code (resetToken from forgotPassword)' },
  ],
  [
    'changePassword',
    USER_UID,
    'changePassword',
    { type: 'UsersPermissionsLoginPayload', args: { currentPassword: 'String!', ...PASSWORDS }, description: 'Change user password. Confirm with the current password.' },
  ],
  ['emailConfirmation', USER_UID, 'emailConfirmation', { type: 'UsersPermissionsLoginPayload', args: { confirmation: 'String!' }, description: 'Confirm an email users email address' }],
];

function rootFields(list: readonly PluginField[]): RootFields {
  return new Map(list.map(([name, uid, action, spec]) => [name, { spec, uid, action, single: false }]));
}

export const pluginQueries = (): RootFields => rootFields(PLUGIN_QUERIES);
export const pluginMutations = (): RootFields => rootFields(PLUGIN_MUTATIONS);
