/**
 * The names the change triggers write by (change-triggers.ts), on their own so that the SQL
 * compiler can name them without loading the database code: MariaDB's table of versions, one row
 * per table, and the name that stands for every table (a sync that changed the layout).
 */
export const VERSIONS_TABLE = 'content_api_table_versions';
export const EVERY_TABLE = '*';
