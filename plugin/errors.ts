/**
 * The API's errors, as data: a status, Strapi's error name, a message and details. A 4xx message
 * is written for the caller and reaches the response; a 5xx never does (see http/errors.ts), except
 * the fixed message of a 503.
 */

export type ErrorName =
  | 'ValidationError'
  | 'ApplicationError'
  | 'PayloadTooLargeError'
  | 'UnauthorizedError'
  | 'ForbiddenError'
  | 'NotFoundError'
  | 'MethodNotAllowedError'
  | 'InternalServerError'
  | 'ServiceUnavailableError'
  | 'RateLimitError'
  | 'PaginationError';

const STATUS: Record<ErrorName, number> = {
  ValidationError: 400,
  ApplicationError: 400,
  PayloadTooLargeError: 413,
  UnauthorizedError: 401,
  ForbiddenError: 403,
  NotFoundError: 404,
  MethodNotAllowedError: 405,
  InternalServerError: 500,
  ServiceUnavailableError: 503,
  RateLimitError: 429,
  PaginationError: 400,
};

export class ApiError extends Error {
  readonly status: number;
  /** Whether the message may be shown to the caller (every 4xx). */
  readonly expose: boolean;
  readonly details: Readonly<Record<string, unknown>>;

  constructor(name: ErrorName, message: string, details: Record<string, unknown> = {}) {
    super(message);
    this.name = name;
    this.status = STATUS[name];
    this.expose = this.status < 500 || this.status === 503;
    this.details = details;
  }
}

/** A malformed query: the message and `details.path` name the offending parameter (`populate.category.fields[0]`). */
export class ValidationError extends ApiError {
  readonly path: string;

  /** `new ValidationError(message)` too, as a lifecycle hook throws it: a 400 with that message. */
  constructor(pathOrMessage: string, message?: string) {
    const path = message === undefined ? '' : pathOrMessage;
    const text = message === undefined ? pathOrMessage : message;
    super('ValidationError', path ? `${text} (at ${path})` : text, path ? { path } : {});
    this.path = path;
  }
}

/** Where a problem is in a write body's `data`, as Strapi's `details.errors[].path`: `['seo', 'metaTitle']`, `['links', 1, 'label']`. */
export type DataPath = readonly (string | number)[];

export interface DataProblem {
  readonly path: DataPath;
  readonly message: string;
}

/**
 * A write body that breaks the schema: every problem at once, as Strapi lists them in
 * `details.errors` (`{ path, message, name }`). Nothing was written.
 */
export class DataValidationError extends ApiError {
  readonly problems: readonly DataProblem[];

  constructor(problems: readonly DataProblem[]) {
    const message = problems.length === 1 ? problems[0].message : `${problems.length} errors occurred`;
    super('ValidationError', message, { errors: problems.map(({ path, message }) => ({ path: [...path], message, name: 'ValidationError' })) });
    this.problems = problems;
  }
}

/** A method the route does not take, with why (the router's own 405s say only `Method Not Allowed`). */
export class MethodNotAllowedError extends ApiError {
  constructor(message = 'Method Not Allowed') {
    super('MethodNotAllowedError', message);
  }
}

/** A write the data allows but the content's state does not: a locale already translated, a component of another entry. */
export class ApplicationError extends ApiError {
  constructor(message: string, details: Record<string, unknown> = {}) {
    super('ApplicationError', message, details);
  }
}

/**
 * A write in a locale the API does not take: Strapi's message (`message`, which callers written
 * for Strapi compare), and in `details` the locales it takes and where they are set.
 */
export function unknownLocaleError(message: string, locale: unknown, locales: ReadonlySet<string>): ApplicationError {
  const valid = [...locales];
  const given = typeof locale === 'string' ? `locale "${locale}"` : `locale ${JSON.stringify(locale) ?? String(locale)}`;
  const help = `${given} is not one of ${valid.join(', ') || '(none)'} (the locales option, or --locales)`;
  return new ApplicationError(message, { locale: locale ?? null, locales: valid, help });
}

/** A request body over the configured limit. */
export class PayloadTooLargeError extends ApiError {
  constructor(limit: number) {
    super('PayloadTooLargeError', `The request body is larger than ${limit} bytes`);
  }
}

export class UnauthorizedError extends ApiError {
  constructor(message = 'Missing or invalid credentials') {
    super('UnauthorizedError', message);
  }
}

export class ForbiddenError extends ApiError {
  constructor(message = 'Forbidden') {
    super('ForbiddenError', message);
  }
}

export class NotFoundError extends ApiError {
  constructor(message = 'Not Found') {
    super('NotFoundError', message);
  }
}

/**
 * The request could not be served in time (deadline, admission queue, database unreachable). Its
 * message is fixed and safe to show; `retryAfter` (seconds) becomes the `Retry-After` header.
 */
export class ServiceUnavailableError extends ApiError {
  readonly retryAfter: number | null;

  constructor(message = 'Service Unavailable', retryAfter: number | null = null) {
    super('ServiceUnavailableError', message);
    this.retryAfter = retryAfter;
  }
}

/** Too many login or register attempts (Strapi's users-permissions limiter); `retryAfter` in seconds. */
export class RateLimitError extends ApiError {
  readonly retryAfter: number;

  constructor(retryAfter: number) {
    super('RateLimitError', 'Too many requests, please try again later.');
    this.retryAfter = retryAfter;
  }
}
