import { endpoint } from './route.ts';

/**
 * A documented write endpoint (create, update, delete): batch/v1 may run it (issue 4: batch for the
 * write routes of every translated namespace; `"batch": false` in mappings restores the legacy refusal).
 */
export const writeEndpoint: typeof endpoint = (e) => endpoint({ ...e, allowBatch: true });
