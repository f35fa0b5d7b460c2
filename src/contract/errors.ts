/**
 * WordPress-style REST errors: `{code, message, data}` with the HTTP status in `data.status`.
 * Handlers throw `RestError`; the pipeline turns it into the legacy body.
 */
import { paramMap } from './php-params.ts';
export interface RestErrorBody {
  code: string;
  message: string;
  data: ({ status: number } & Record<string, unknown>) | null;
  additional_errors?: RestErrorBody[];
}

export class RestError extends Error {
  readonly code: string;
  readonly status: number;
  readonly data: Record<string, unknown>;

  constructor(code: string, message: string, status: number, data: Record<string, unknown> = {}) {
    super(message);
    this.code = code;
    this.status = status;
    this.data = data;
  }

  toBody(): RestErrorBody {
    return { code: this.code, message: this.message, data: { status: this.status, ...this.data } };
  }
}

/** WordPress's `%l` list format: "a", "a and b", "a, b, and c". */
export function wpList(items: readonly unknown[]): string {
  const s = items.map(String);
  if (s.length <= 1) return s.join('');
  if (s.length === 2) return `${s[0]} and ${s[1]}`;
  return `${s.slice(0, -1).join(', ')}, and ${s[s.length - 1]}`;
}

/** The stable codes of the core pipeline, with their legacy messages. */
export const coreErrors = {
  noRoute: () => new RestError('rest_no_route', 'No route was found matching the URL and request method.', 404),
  invalidJson: (detail: string) =>
    new RestError('rest_invalid_json', 'Invalid JSON body passed.', 400, { json_error_code: 4, json_error_message: detail }),
  missingParams: (params: string[]) =>
    new RestError('rest_missing_callback_param', `Missing parameter(s): ${params.join(', ')}`, 400, { params }),
  forbidden: (loggedIn: boolean, message = 'Sorry, you are not allowed to do that.', code = 'rest_forbidden') =>
    new RestError(code, message, loggedIn ? 403 : 401),
  invalidNamespace: () => new RestError('rest_invalid_namespace', 'The specified namespace could not be found.', 404),
  batchNotAllowed: () => new RestError('rest_batch_not_allowed', 'The requested route does not support batch requests.', 400),
  tooLarge: (limit: number) =>
    new RestError('rest_request_too_large', `The request body is larger than the limit of ${limit} bytes.`, 413),
  internal: () => new RestError('rest_internal_error', 'The server could not complete the request.', 500),
  /** Lintel's own (see DEVIATIONS.md): the legacy site answered a database outage with an HTML 500 page. */
  storeUnavailable: () => new RestError('rest_store_unavailable', 'The content store is unavailable. Try again shortly.', 503),
} as const;

/** Per-parameter validation failure, as WordPress reports it inside `rest_invalid_param`. */
export interface ParamError {
  code: string | null; // null: a bare `false` from a validate callback ("Invalid parameter.", no details entry)
  message: string;
  data: Record<string, unknown> | null;
}

export function invalidParams(errors: Map<string, ParamError[]>): RestError {
  // Keyed by parameter names, which the client chose (a NUL byte is refused under any name, `__proto__` too).
  const params = paramMap() as Record<string, string>;
  const details = paramMap() as Record<string, { code: string; message: string; data: unknown }>;
  for (const [name, list] of errors) {
    params[name] = list.map((e) => e.message).join(' ');
    const first = list[0];
    if (first && first.code) details[name] = { code: first.code, message: first.message, data: first.data };
  }
  const names = [...errors.keys()].join(', ');
  // PHP encodes an empty details array as `[]`, not `{}`: keep that for clients that check the type.
  return new RestError('rest_invalid_param', `Invalid parameter(s): ${names}`, 400, {
    params,
    details: Object.keys(details).length ? details : [],
  });
}
