import { describe, expect, it } from 'vitest';
import { errors } from './error-codes.ts';
import { RestError } from './errors.ts';

// Arguments for the factories that need some; every other factory is called with none.
const ARGS: Record<string, unknown[]> = {
  'core.invalidJson': [{ code: 4, message: 'Syntax error' }],
  'core.missingParams': [['id']],
  'core.invalidParams': ['id', { params: { id: 'id is not of type integer.' }, details: [] }],
  'core.forbidden': [true],
  'core.tooLarge': [1024],
  'http.refused': ['Bad Request', 400],
  'auth.throttled': [60],
  'upstream.unresolved': ['example.test'],
  'upstream.forbidden': ['example.test'],
  'upstream.redirects': [5],
  'upstream.tooLarge': [1024],
  'upstream.timeout': [5000],
  'upstream.unreachable': ['example.test'],
  'legacy.timeout': [5000],
  'calendar.eventNotFound': [7],
  'calendar.linkedPageNotFound': ['venue'],
  'calendar.linkedNotAccessible': ['venue'],
  'calendar.linkedInTrash': ['venue'],
  'calendar.linkedNotCreated': ['venue'],
  'calendar.cannotEditOthers': [true, true],
  'calendar.termExists': [true, 7],
  'calendar.duplicateTermSlug': ['news'],
  'widgetsAi.upstreamError': ['Rate limit reached', 429],
  'redirection.invalid': ['Invalid source URL'],
  'legacy.tooLarge': [16_777_216],
};

const catalog = Object.entries(errors).flatMap(([area, factories]) =>
  Object.entries(factories as Record<string, (...args: unknown[]) => RestError>).map(([name, make]) => {
    const key = `${area}.${name}`;
    return { key, error: make(...(ARGS[key] ?? [])) };
  }),
);

describe('the error catalog', () => {
  it.each(catalog)('$key is a RestError with a stable code, a message and an error status', ({ error }) => {
    expect(error).toBeInstanceOf(RestError);
    expect(error.code).toMatch(/^[a-z][a-z0-9_-]*$/);
    expect(error.message).not.toBe('');
    expect(error.message).not.toContain('undefined');
    expect(Number.isInteger(error.status) && error.status >= 400 && error.status <= 599).toBe(true);
    expect(error.toBody().data?.status).toBe(error.status);
  });

  it('declares each answer once: no two entries give the same code, status and message', () => {
    const seen = new Map<string, string>();
    for (const { key, error } of catalog) {
      const answer = `${error.code} ${error.status} ${error.message}`;
      expect(seen.get(answer), `${key} repeats ${seen.get(answer)}`).toBeUndefined();
      seen.set(answer, key);
    }
  });

  it('has an argument sample only for entries that exist', () => {
    const keys = new Set(catalog.map((c) => c.key));
    expect(Object.keys(ARGS).filter((k) => !keys.has(k))).toEqual([]);
  });
});
