/**
 * WordPress-style REST errors: `{code, message, data}` with the HTTP status in `data.status`.
 * Handlers throw one from the catalog in `error-codes.ts`; the pipeline turns it into the legacy body.
 */
export interface RestErrorBody {
  code: string;
  message: string;
  data: ({ status: number } & Record<string, unknown>) | null;
  /** Earlier data the WP_Error was given for the same code, before the last (`data`). */
  additional_data?: unknown[];
  additional_errors?: RestErrorBody[];
}

export class RestError extends Error {
  readonly code: string;
  readonly status: number;
  readonly data: Record<string, unknown>;
  readonly additionalData: unknown[] | undefined;

  constructor(code: string, message: string, status: number, data: Record<string, unknown> = {}, additionalData?: unknown[]) {
    super(message);
    this.code = code;
    this.status = status;
    this.data = data;
    this.additionalData = additionalData;
  }

  toBody(): RestErrorBody {
    const body: RestErrorBody = { code: this.code, message: this.message, data: { status: this.status, ...this.data } };
    if (this.additionalData) body.additional_data = this.additionalData;
    return body;
  }
}

/** WordPress's `%l` list format: "a", "a and b", "a, b, and c". */
export function wpList(items: readonly unknown[]): string {
  const s = items.map(String);
  if (s.length <= 1) return s.join('');
  if (s.length === 2) return `${s[0]} and ${s[1]}`;
  return `${s.slice(0, -1).join(', ')}, and ${s[s.length - 1]}`;
}

/** Per-parameter validation failure, as WordPress reports it inside `rest_invalid_param`. */
export interface ParamError {
  code: string | null; // null: a bare `false` from a validate callback ("Invalid parameter.", no details entry)
  message: string;
  data: Record<string, unknown> | null;
}
