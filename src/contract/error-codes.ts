/**
 * Every error the API answers, declared once: the list of its stable error codes, by area.
 * Callers throw `errors.<area>.<name>(...)`; no other module builds a `RestError` itself.
 * Codes, messages and statuses are the legacy site's wherever it had the error (tests and
 * conformance captures assert them byte for byte); the others are Lintel's own (see DEVIATIONS.md).
 * This module imports nothing but `RestError` (and a type of lib/), so any module may import it without a cycle.
 */
import type { PhpJsonError } from '../lib/php-json.ts';
import { RestError, type RestErrorBody } from './errors.ts';

/** The 429 of a throttled login; `retryAfter` (seconds) goes out as the `Retry-After` header. */
export class LoginThrottled extends RestError {
  readonly retryAfter: number;
  constructor(retryAfter: number) {
    super('too_many_login_attempts', `Too many failed login attempts. Try again in ${retryAfter} seconds.`, 429);
    this.retryAfter = retryAfter;
  }
}

/** An error WordPress answers with wp_die() before the REST server runs: its JSON body also lists `additional_errors` (and wp_die sends the no-cache headers). */
export class WpDie extends RestError {
  override toBody(): RestErrorBody {
    return { ...super.toBody(), additional_errors: [] };
  }
}

/** A refusal for want of a capability: 401 to an anonymous client, 403 to a logged-in one. */
const refusal = (code: string, message: string) => (loggedIn: boolean) => new RestError(code, message, loggedIn ? 403 : 401);

export const errors = {
  /** The core pipeline: routing, parsing, validation, permissions. */
  core: {
    noRoute: () => new RestError('rest_no_route', 'No route was found matching the URL and request method.', 404),
    routeNotString: () => new WpDie('rest_path_invalid_type', 'The REST route parameter must be a string.', 400),
    invalidJson: (e: PhpJsonError) =>
      new RestError('rest_invalid_json', 'Invalid JSON body passed.', 400, { json_error_code: e.code, json_error_message: e.message }),
    missingParams: (params: string[]) =>
      new RestError('rest_missing_callback_param', `Missing parameter(s): ${params.join(', ')}`, 400, { params }),
    /** `params` and `details` keyed by parameter name; an empty details list is `[]`, as PHP encodes it. */
    invalidParams: (names: string, data: { params: Record<string, string>; details: Record<string, unknown> | [] }) =>
      new RestError('rest_invalid_param', `Invalid parameter(s): ${names}`, 400, data),
    forbidden: refusal('rest_forbidden', 'Sorry, you are not allowed to do that.'),
    invalidNamespace: () => new RestError('rest_invalid_namespace', 'The specified namespace could not be found.', 404),
    batchNotAllowed: () => new RestError('rest_batch_not_allowed', 'The requested route does not support batch requests.', 400),
    tooLarge: (limit: number) =>
      new RestError('rest_request_too_large', `The request body is larger than the limit of ${limit} bytes.`, 413),
    internal: () => new RestError('rest_internal_error', 'The server could not complete the request.', 500),
    badIdempotencyKey: () => new RestError('rest_invalid_idempotency_key', 'The Idempotency-Key header must be 1 to 255 characters.', 400),
    idempotencyKeyReused: () =>
      new RestError('rest_idempotency_key_reused', 'This Idempotency-Key was already used for another request in the last 24 hours.', 422),
    /** Lintel's own (see DEVIATIONS.md): the legacy site answered a database outage with an HTML 500 page. */
    storeUnavailable: () => new RestError('rest_store_unavailable', 'The content store is unavailable. Try again shortly.', 503),
  },

  /** Requests refused before any route sees them (by Node's HTTP parser or the router). */
  http: {
    headersTooLarge: () => new RestError('rest_request_headers_too_large', 'The request headers are larger than the server accepts.', 431),
    requestTimeout: () => new RestError('rest_request_timeout', 'The request took too long to arrive.', 408),
    tooManyConnections: () => new RestError('rest_too_many_connections', 'Too many open connections from this address.', 429),
    unreadable: () => new RestError('rest_bad_request', 'The request could not be read.', 400),
    badPercentEncoding: () => new RestError('rest_bad_request', 'The URL is not valid percent-encoding.', 400),
    /** wp_die of parse_request: a query var sent in the query string and a POST form body with different values. */
    variableMismatch: () => new WpDie('wp_die', 'A variable mismatch has been detected.', 400),
    /** A 4xx the framework raised, with its own message and status. */
    refused: (message: string, status: number) => new RestError('rest_bad_request', message, status),
  },

  /** Basic authentication with application passwords. */
  auth: {
    invalidUsername: () =>
      new RestError('invalid_username', '<strong>Error:</strong> Unknown username. Check again or try your email address.', 401),
    invalidEmail: () => new RestError('invalid_email', '<strong>Error:</strong> Unknown email address. Check again or try your username.', 401),
    incorrectPassword: () => new RestError('incorrect_password', 'The provided password is an invalid application password.', 401),
    throttled: (retryAfter: number) => new LoginThrottled(retryAfter),
  },

  /** Fetching a remote URL on a client's behalf (oEmbed, link previews). */
  upstream: {
    scheme: () => new RestError('upstream_invalid_url', 'Only http and https URLs can be fetched.', 400),
    unresolved: (host: string) => new RestError('upstream_unresolved', `The host ${host} could not be resolved.`, 400),
    forbidden: (host: string) => new RestError('upstream_forbidden_address', `The host ${host} resolves to an address that may not be fetched.`, 403),
    redirects: (max: number) => new RestError('upstream_too_many_redirects', `The remote site redirected more than ${max} times.`, 400),
    tooLarge: (max: number) => new RestError('upstream_too_large', `The remote response is larger than ${max} bytes.`, 400),
    timeout: (ms: number) => new RestError('upstream_timeout', `The remote site did not answer within ${ms} ms.`, 408),
    unreachable: (host: string) => new RestError('upstream_unreachable', `The host ${host} could not be reached.`, 400),
  },

  /** Routes forwarded to the legacy origin. */
  legacy: {
    notConfigured: () =>
      new RestError('rest_upstream_unavailable', 'This address is served by the legacy site, and no legacy site is configured (LINTEL_LEGACY_ORIGIN).', 502),
    unavailable: () => new RestError('rest_upstream_unavailable', 'The legacy site could not be reached.', 502),
    brokeOff: () => new RestError('rest_upstream_unavailable', 'The legacy site broke off its answer.', 502),
    timeout: (ms: number) => new RestError('rest_upstream_timeout', `The legacy site did not answer within ${ms} ms.`, 504),
    tooLarge: (limit: number) => new RestError('rest_upstream_too_large', `The legacy site's answer is larger than the limit of ${limit} bytes.`, 502),
    /** A forwarded multipart body with a `rest_route` field would name another route of the legacy site. */
    routeNamed: () => new RestError('rest_forwarded_route', 'A forwarded request cannot name a route (rest_route) in its body.', 400),
  },

  mail: {
    notConfigured: () => new RestError('mail_not_configured', 'No mail server is configured: set LINTEL_SMTP_URL to send mail.', 503),
  },

  batch: {
    parsePathFailed: () => new RestError('parse_path_failed', 'Could not parse the path.', 400),
    forwardedInTransaction: () =>
      new RestError(
        'rest_batch_forwarded',
        'This route is served by the legacy site, so it cannot join a require-all-validate transaction; send it in a "normal" batch or on its own.',
        400,
      ),
    notRun: () => new RestError('rest_batch_not_run', 'Not run: an earlier request of this batch failed, so nothing was written.', 424),
  },

  calendar: {
    // The ID as PHP's (int) cast has it: one past 64 bits saturates.
    eventNotFound: (id: number) => new RestError('rest-event-not-found', `Event with ID ${id >= 2 ** 63 ? '9223372036854775807' : id} does not exist.`, 404),
    invalidEventId: () => new RestError('rest-invalid-event-id', 'The specified ID is not a valid event.', 400),
    eventGone: () => new RestError('event-no-longer-available', 'This event is no longer available', 403),
    eventNotAccessible: () => new RestError('event-not-accessible', 'The requested event is not accessible', 403),
    eventPasswordProtected: () => new RestError('event-password-protected', 'The requested event is not accessible without a password', 403),
    eventPageNotFound: () => new RestError('event-archive-page-not-found', 'The requested event archive page does not exist', 404),
    eventInTrash: () => new RestError('event-is-in-trash', 'The event is already trashed', 410),
    linkedPageNotFound: (k: string) => new RestError(`${k}-archive-page-not-found`, `The requested ${k} archive page does not exist`, 404),
    linkedNotAccessible: (k: string) => new RestError(`${k}-not-accessible`, `The requested ${k} is not accessible`, 403),
    linkedInTrash: (k: string) => new RestError(`${k}-is-in-trash`, `The ${k} is already trashed`, 410),
    linkedNotCreated: (k: string) => new RestError(`could-not-create-${k}`, `The ${k} could not be created from the provided data`, 400),
    // wp_insert_post's refusal, which carries no status (500 on the legacy site, calendar-empty-name).
    emptyContent: () => new RestError('empty_content', 'Content, title, and excerpt are empty.', 400),
    termInvalid: () => new RestError('rest_term_invalid', 'Term does not exist.', 404),
    // WP_REST_Terms_Controller's get_term of the parent, after TEC's validator found a term by the absolute value.
    parentTermMissing: () => new RestError('rest_term_invalid', 'Parent term does not exist.', 400),
    cannotEditOthers: (loggedIn: boolean, creating: boolean) =>
      new RestError('rest_cannot_edit_others', `Sorry, you are not allowed to ${creating ? 'create' : 'update'} posts as this user.`, loggedIn ? 403 : 401),
    // Hierarchical taxonomies (categories) check names per parent; tags per taxonomy.
    termExists: (hierarchical: boolean, id: number) =>
      // wp_insert_term's error carries the ID; the terms controller adds it again, then the status (the last data).
      new RestError('term_exists', `A term with the name provided already exists ${hierarchical ? 'with this parent' : 'in this taxonomy'}.`, 400, { term_id: id }, [id, id]),
    // wp_insert_term's and wp_update_term's refusals of a name, which carry no status (500 on the legacy site, calendar-empty-name).
    emptyTermName: () => new RestError('empty_term_name', 'A name is required for this term.', 400),
    invalidTermName: () => new RestError('invalid_term_name', 'Invalid term name.', 400),
    // WordPress's wp_update_term error, with a status (see DEVIATIONS.md: calendar-term-duplicate-slug).
    // WordPress's own message (its entities included, as wp_update_term writes them).
    duplicateTermSlug: (slug: string) =>
      new RestError('duplicate_term_slug', `The slug &#8220;${slug}&#8221; is already in use by another term.`, 400),
  },

  history: {
    cannotViewEvents: refusal('rest_forbidden_context', 'Sorry, you are not allowed to view events.'),
    cannotUpdateEvents: refusal('rest_forbidden_context', 'Sorry, you are not allowed to update events.'),
    cannotViewStats: refusal('rest_forbidden_context', 'Sorry, you are not allowed to view stats.'),
    cannotSearchUsers: refusal('rest_forbidden_context', 'Sorry, you are not allowed to search users.'),
    cannotViewSurrounding: refusal('rest_forbidden', 'You do not have permission to view surrounding events. This feature requires administrator privileges.'),
    // Only a logged-in reader gets this far: the event's logger is one they may not read.
    cannotViewEvent: () => new RestError('rest_forbidden_context', 'Sorry, you are not allowed to view this event.', 403),
    invalidEventId: () => new RestError('rest_event_invalid_id', 'Invalid event ID.', 404),
    eventNotFound: () => new RestError('rest_event_not_found', 'Event not found.', 404),
    invalidDate: () => new RestError('rest_invalid_date', 'Invalid date format. Please use Y-m-d H:i:s format (e.g., 2024-01-15 14:30:00).', 400),
    missingSearchQuery: () => new RestError('rest_invalid_param', 'Please provide a search query.', 400),
    emailSendFailed: () => new RestError('email_send_failed', 'Failed to send test email.', 500),
  },

  forms: {
    malformed: (message = 'Malformed request') => new RestError('malformed_request', message, 400),
    rateLimited: () => new RestError('rate_limit_exceeded', 'Too many requests. Please try again later.', 429),
    invalidToken: () => new RestError('invalid_token', 'The token could not be decoded.', 403),
    tooManyFormIds: () => new RestError('too_many_form_ids', 'A token is issued for one form at a time.', 400),
    invalidFormId: () => new RestError('invalid_form_id', 'A valid form ID is required.', 400),
    formNotFound: () => new RestError('form_not_found', 'Form not found.', 404),
    noReferer: () => new RestError('invalid_request', 'The request has no referring page.', 403),
    refererNotSubmissionsPage: () =>
      new RestError('post_id_not_found', 'The referring page is not a page of this site that shows a submissions table.', 403),
    formNotOnReferer: () => new RestError('unauthorized_form_access', 'The referring page does not show this form\'s submissions.', 403),
  },

  widgetsAi: {
    notConfigured: () => new RestError('ai_not_configured', 'No AI backend is configured: set LINTEL_AI_CHAT_URL to enable the AI prompt.', 503),
    serverError: () => new RestError('server_error', 'An error occurred when making a request to the AI server.', 502),
    /** The AI endpoint's own error status, with its message when it gives one. */
    upstreamError: (message: string, status: number) => new RestError('server_error', message, status),
  },

  oembed: {
    cannotProxy: refusal('rest_forbidden', 'Sorry, you are not allowed to make proxied oEmbed requests.'),
    invalidUrl: () => new RestError('oembed_invalid_url', 'Not Found', 404),
  },

  /** Lintel's own namespace (lintel/v1) and endpoints. */
  lintel: {
    shadowAdminOnly: refusal('rest_forbidden', 'Sorry, only administrators may read the shadow report.'),
    metricsUnauthorized: () => new RestError('metrics_unauthorized', 'The metrics need the configured bearer token.', 401),
  },

  redirection: {
    /** Plugin errors: status 400 with the PHP line the legacy site reported (clients only show it). */
    invalid: (message: string, code = 'redirect', line = 347) => new RestError(code, message, 400, { error_code: line }),
  },
} as const;
