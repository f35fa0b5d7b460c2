/**
 * Response declarations for endpoints: what a success answers, beside the arguments it takes.
 * The schemas only describe (the OpenAPI document, the docs page); handlers build the bodies.
 */
import { z } from 'zod';
import type { Reply } from './route.ts';

const JSON_TYPE = 'application/json';

/** A JSON body with status 200, or another success status (201 for creations). */
export function json(body: z.ZodType, status = 200): Reply {
  return { status, contentType: JSON_TYPE, body };
}

/** A body that is not JSON (an export file, an HTML page, XML), described as a string. */
export function raw(contentType: string, description: string, status = 200): Reply {
  return { status, contentType, body: z.string().meta({ description }) };
}

/** Builders for the legacy shapes' recurring parts. */
export const shape = {
  /** A JSON object keyed by anything (option maps, free-form data). */
  map: (values: z.ZodType = z.unknown()) => z.record(z.string(), values),
  /** HAL links as WordPress writes them: relation to a list of `{href}`. */
  links: () => z.record(z.string(), z.array(z.looseObject({ href: z.string() }))),
  /** A PHP empty array, which JSON-encodes as `[]` where an object is expected when empty. */
  orEmpty: <T extends z.ZodType>(s: T) => z.union([s, z.tuple([])]),
};
