/**
 * How the plugin talks to MariaDB and MySQL through mysql2: the connection options of a
 * `mysql://` or `mariadb://` URL, and the session settings of its connections.
 *
 * Values come back as text where a JavaScript value would lose or shift them: datetimes and dates
 * (no Date in the process's time zone), bigintegers and decimals (no rounding above 2^53), json
 * (MariaDB's JSON is LONGTEXT; MySQL's is parsed by mysql2 unless asked not to).
 */
import { readFileSync } from 'node:fs';

/**
 * mysql2's connection options for a `mysql://user:password@host:port/database` URL. Its query
 * parameters: `socketPath` (the server's Unix socket, in place of host and port), `ssl` (`true`
 * for TLS verified against the system's authorities, or a JSON object of Node's TLS options) and
 * `sslca` (a file of authorities to verify the server against, which turns TLS on). Any other
 * parameter is refused rather than ignored: a connection that silently went elsewhere, or in the
 * clear, is worse than one that does not start.
 */
export function mysqlConnectionConfig(url: string, connectTimeout: number): Record<string, unknown> {
  const parsed = new URL(url.replace(/^mariadb:/, 'mysql:'));
  const unknown = [...parsed.searchParams.keys()].filter((key) => !MYSQL_URL_PARAMETERS.includes(key));
  if (unknown.length) {
    throw new Error(`invalid database URL: unknown parameter ${unknown.map((key) => `"${key}"`).join(', ')} (a mysql:// URL takes ${MYSQL_URL_PARAMETERS.join(', ')})`);
  }
  const socketPath = parsed.searchParams.get('socketPath');
  const ssl = tlsOptions(parsed.searchParams);
  return {
    ...(socketPath ? { socketPath } : { host: parsed.hostname.replace(/^\[(.*)\]$/, '$1') || '127.0.0.1', port: parsed.port ? Number(parsed.port) : 3306 }),
    user: decodeURIComponent(parsed.username || 'root'),
    password: decodeURIComponent(parsed.password),
    database: decodeURIComponent(parsed.pathname.replace(/^\//, '')) || undefined,
    ...(ssl ? { ssl } : {}),
    charset: 'utf8mb4',
    timezone: 'Z',
    dateStrings: true,
    supportBigNumbers: true,
    bigNumberStrings: true,
    jsonStrings: true,
    connectTimeout,
  };
}

/** The query parameters a mysql:// URL may carry. */
const MYSQL_URL_PARAMETERS = ['socketPath', 'ssl', 'sslca'];

/** mysql2's `ssl` option from the URL's `ssl` and `sslca`, or null for a connection without TLS. */
function tlsOptions(parameters: URLSearchParams): Record<string, unknown> | null {
  const ssl = parameters.get('ssl');
  const ca = parameters.get('sslca');
  let options: Record<string, unknown> | null = null;
  if (ssl !== null && ssl !== 'false') {
    if (ssl === 'true' || ssl === '') options = {};
    else {
      let value: unknown;
      try {
        value = JSON.parse(ssl);
      } catch {
        value = null;
      }
      if (typeof value !== 'object' || value === null || Array.isArray(value)) {
        throw new Error('invalid database URL: ssl is true, false or a JSON object of TLS options');
      }
      options = value as Record<string, unknown>;
    }
  }
  if (ca !== null) {
    try {
      options = { ...options, ca: readFileSync(ca, 'utf8') };
    } catch (error) {
      throw new Error(`invalid database URL: cannot read the sslca file ${ca} (${(error as Error).message})`);
    }
  }
  return options;
}

/**
 * The longest text one group_concat or JSON_ARRAYAGG may build (1 GiB): past group_concat_max_len
 * both cut their result silently, which would cut a response body in the middle of an entry.
 */
export const MYSQL_MAX_GROUP_TEXT = 1024 * 1024 * 1024;

/** The longest row a sort carries with it (see mysqlReadSession): a few `varchar(255)` columns in utf8mb4. */
export const MYSQL_SORT_ROW_BYTES = 8192;

/**
 * Every connection of the plugin's own pool: identifiers in double quotes and `||` as
 * concatenation (the SQL the rest of the plugin writes for every engine), datetimes as UTC.
 */
export const MYSQL_KNEX_SESSION =
  "SET SESSION sql_mode = CONCAT(@@sql_mode, ',ANSI_QUOTES,PIPES_AS_CONCAT'), time_zone = '+00:00', " +
  `group_concat_max_len = ${MYSQL_MAX_GROUP_TEXT}`;

/**
 * The read connections of the executor: the same, and backslashes as ordinary characters in string
 * literals (`ESCAPE '\'` of the LIKE filters). Their statements are prepared, so no value is ever
 * escaped into the text, which a client escaping with backslashes would get wrong in that mode.
 * The deadline is the session's max_statement_time (MariaDB, seconds).
 *
 * Semi-joins are off: MariaDB flattens a filter's nested `IN (SELECT …)` hops into one join and
 * materializes every combination along the path (a six-hop filter on the large fixture: 8 s);
 * without them each hop is a subquery of its own, and the same filter takes 80 ms. A statement
 * whose filter hops are all unnested turns them on for itself (dialect/mysql.ts). Split
 * materialization is off too: it computes a grouped sort path (compile-sort.ts) again for each row
 * that joins it, instead of once (a populated list sorted through four hops: over 20 s, 0.13 s without).
 *
 * Sorts carry their rows' columns (max_length_for_sort_data): at the default 1 KiB, one
 * `varchar(255)` in utf8mb4 (locale, read by every filter) is past it, so a sort keeps only row ids
 * and reads each sorted row back by id afterwards. A deep page (`pagination[page]=150`) sorts every
 * row up to its offset: 3,750 such reads back on the large fixture, none with the columns carried.
 */
export function mysqlReadSession(timeoutMs: number): string {
  return (
    "SET SESSION sql_mode = CONCAT(@@sql_mode, ',ANSI_QUOTES,PIPES_AS_CONCAT,NO_BACKSLASH_ESCAPES'), time_zone = '+00:00', " +
    `group_concat_max_len = ${MYSQL_MAX_GROUP_TEXT}, max_statement_time = ${Math.max(0.001, timeoutMs / 1000)}, ` +
    `max_length_for_sort_data = ${MYSQL_SORT_ROW_BYTES}, ` +
    "optimizer_switch = 'semijoin=off,split_materialized=off'"
  );
}
