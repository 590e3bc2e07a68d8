/**
 * The users-permissions plugin's user and role content types exactly as Strapi 4.26.2 ships them
 * (its schema.json files). A Strapi app uses them without declaring them, so the importer writes
 * them out when the app's schema refers to users or roles, unless the app overrides them under
 * src/extensions/users-permissions.
 */

/** A Strapi schema.json document, as read from disk. */
export type StrapiSchemaJson = Record<string, unknown>;

export const USER_UID = 'plugin::users-permissions.user';
export const ROLE_UID = 'plugin::users-permissions.role';

/** A fresh copy of the stock schema of the user or the role, free to be changed by the caller. */
export function stockUsersPermissionsSchema(name: 'user' | 'role'): StrapiSchemaJson {
  return structuredClone(name === 'user' ? STOCK_USER : STOCK_ROLE);
}

/** `plugin::users-permissions.user` (table `up_users`). */
const STOCK_USER: StrapiSchemaJson = {
  collectionName: 'up_users',
  info: {
    name: 'user',
    description: '',
    singularName: 'user',
    pluralName: 'users',
    displayName: 'User',
  },
  options: {
    draftAndPublish: false,
    timestamps: true,
  },
  attributes: {
    username: {
      type: 'string',
      minLength: 3,
      unique: true,
      configurable: false,
      required: true,
    },
    email: {
      type: 'email',
      minLength: 6,
      configurable: false,
      required: true,
    },
    provider: {
      type: 'string',
      configurable: false,
    },
    password: {
      type: 'password',
      minLength: 6,
      configurable: false,
      private: true,
      searchable: false,
    },
    resetPasswordToken: {
      type: 'string',
      configurable: false,
      private: true,
      searchable: false,
    },
    confirmationToken: {
      type: 'string',
      configurable: false,
      private: true,
      searchable: false,
    },
    confirmed: {
      type: 'boolean',
      default: false,
      configurable: false,
    },
    blocked: {
      type: 'boolean',
      default: false,
      configurable: false,
    },
    role: {
      type: 'relation',
      relation: 'manyToOne',
      target: 'plugin::users-permissions.role',
      inversedBy: 'users',
      configurable: false,
    },
  },
  config: {
    attributes: {
      resetPasswordToken: {
        hidden: true,
      },
      confirmationToken: {
        hidden: true,
      },
      provider: {
        hidden: true,
      },
    },
  },
};

/** `plugin::users-permissions.role` (table `up_roles`). */
const STOCK_ROLE: StrapiSchemaJson = {
  collectionName: 'up_roles',
  info: {
    name: 'role',
    description: '',
    singularName: 'role',
    pluralName: 'roles',
    displayName: 'Role',
  },
  pluginOptions: {
    'content-manager': {
      visible: false,
    },
    'content-type-builder': {
      visible: false,
    },
  },
  attributes: {
    name: {
      type: 'string',
      minLength: 3,
      required: true,
      configurable: false,
    },
    description: {
      type: 'string',
      configurable: false,
    },
    type: {
      type: 'string',
      unique: true,
      configurable: false,
    },
    permissions: {
      type: 'relation',
      relation: 'oneToMany',
      target: 'plugin::users-permissions.permission',
      mappedBy: 'role',
      configurable: false,
    },
    users: {
      type: 'relation',
      relation: 'oneToMany',
      target: 'plugin::users-permissions.user',
      mappedBy: 'role',
      configurable: false,
    },
  },
};

/**
 * The stock user or role as a schema file of this format says it, as `content-api import-strapi`
 * writes it and `content-api init --users` scaffolds it: the uid stated (a file without one would
 * declare `api::user.user`), the admin panel's keys and the role's permissions relation (a type
 * this package has no table for) left out.
 */
export function stockUsersPermissionsDocument(name: 'user' | 'role'): StrapiSchemaJson {
  const { config: _adminOnly, info, attributes, ...rest } = stockUsersPermissionsSchema(name) as StrapiSchemaJson & { info: Record<string, unknown>; attributes: Record<string, { target?: string }> };
  const { name: _legacyName, ...namedInfo } = info;
  const served = Object.fromEntries(Object.entries(attributes).filter(([, attribute]) => attribute.target === undefined || attribute.target === USER_UID || attribute.target === ROLE_UID));
  const { collectionName, ...others } = rest;
  return { uid: name === 'user' ? USER_UID : ROLE_UID, kind: 'collectionType', collectionName, info: namedInfo, ...others, attributes: served };
}
