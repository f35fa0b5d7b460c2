/**
 * The query an app sends the user to the authorize page with. It is checked on every step (the forms
 * post back to the same URL), and a session only continues for the request it was started for.
 */
import type { Params } from '../../lib/php-params.ts';
import { redirectUrlProblem } from './redirect-policy.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What the app asked for; '' where a parameter was not given. */
export interface AppRequest {
  app_name: string;
  app_id: string;
  success_url: string;
  reject_url: string;
}

const FIELDS = ['app_name', 'app_id', 'success_url', 'reject_url'] as const;

/** The request, or every reason it is refused (the legacy page lists them all). */
export function checkAppRequest(query: Params): { request: AppRequest } | { errors: string[] } {
  const errors: string[] = [];
  const request = { app_name: '', app_id: '', success_url: '', reject_url: '' };
  for (const f of FIELDS) {
    const v = query[f];
    if (typeof v === 'string') request[f] = v;
    else if (v !== undefined) errors.push(`The ${f} parameter must be given once, as a single value.`);
  }
  if (request.app_id && !UUID.test(request.app_id)) errors.push('The app_id must be a UUID.');
  for (const f of ['success_url', 'reject_url'] as const) {
    const problem = redirectUrlProblem(request[f]);
    if (problem) errors.push(`The ${f} ${problem}.`);
  }
  return errors.length ? { errors } : { request };
}

/** Whether a stored session's request is this one (an approval may not switch apps or URLs). */
export function sameRequest(a: Record<string, string>, b: AppRequest): boolean {
  return FIELDS.every((f) => a[f] === b[f]);
}
