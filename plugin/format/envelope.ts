/**
 * The error envelope. A successful body is built whole by the database (sql/compile-body.ts) and
 * sent as the bytes it built.
 */

/** The error envelope Strapi answers with. */
export function errorBody(status: number, name: string, message: string, details: Readonly<Record<string, unknown>>): string {
  return JSON.stringify({ data: null, error: { status, name, message, details } });
}
