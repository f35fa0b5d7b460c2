/** `/doc`'s parameters as the legacy endpoints' swaggerize_args writes them. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../../../test/support/app.ts';

let app: TestApp;
let paths: Record<string, Record<string, { parameters: { name: string }[]; requestBody?: { content: Record<string, { schema: { properties: Record<string, unknown> } }> } }>>;
beforeAll(async () => {
  app = await testApp();
  paths = (await app.server.inject({ method: 'GET', url: '/wp-json/calendar/events/v1/doc' })).json().paths;
});
afterAll(() => app.close());

const parameter = (path: string, method: string, name: string) => {
  const p = paths[path]![method]!.parameters.find((x) => x.name === name) as Record<string, unknown>;
  const { description: _, ...rest } = p;
  return rest;
};

describe('/doc parameters', () => {
  it('give a list its declared items; a CSV list (collectionFormat) is style form, without explode (array_filter drops false)', () => {
    for (const name of ['categories', 'tags', 'venue', 'organizer', 'include']) {
      expect(parameter('/events', 'get', name), name).toEqual({ name, in: 'query', schema: { type: 'array', items: { type: 'integer' } }, required: false, style: 'form' });
    }
    for (const name of ['include', 'exclude']) {
      expect(parameter('/tags', 'get', name), name).toEqual({ name, in: 'query', schema: { type: 'array', items: { type: 'integer' } }, required: false });
    }
  });

  it('type an argument by its swagger_type where it declares one', () => {
    expect(parameter('/events', 'get', 'geoloc_lat')).toMatchObject({ schema: { type: 'number' } });
    expect(parameter('/venues', 'get', 'has_events')).toMatchObject({ schema: { type: 'boolean' } });
    const body = paths['/events/{id}']!.post!.requestBody!.content;
    expect(Object.values(body)[0]!.schema.properties.categories).toMatchObject({ type: 'array', items: { type: 'integer' } });
  });

  it('document the event password where the legacy endpoint declares it, in the path (so an update lists it with the ID, not in its body)', () => {
    expect(parameter('/events/{id}', 'get', 'password')).toMatchObject({ in: 'path', required: false });
    expect(paths['/events/{id}']!.post!.parameters.map((p) => p.name)).toEqual(['id', 'password']);
    expect(Object.values(paths['/events/{id}']!.post!.requestBody!.content)[0]!.schema.properties).not.toHaveProperty('password');
  });
});
