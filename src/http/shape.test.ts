import { describe, expect, it } from 'vitest';
import { paramMap, parseQueryString } from '../lib/php-params.ts';
import { filterFields, JsonText, serialize, shape } from './shape.ts';

const body = () => ({ skippedFn: () => 1, events: new JsonText('[{"id":1,"title":"A","venue":{"city":"Boston"}},{"id":2,"title":"B","venue":[]}]'), skipped: undefined, total: 2, rest_url: 'http://x.test/?a=b' });
const plain = () => ({ events: [{ id: 1, title: 'A', venue: { city: 'Boston' } }, { id: 2, title: 'B', venue: [] }], total: 2, rest_url: 'http://x.test/?a=b' });

describe('a body holding JsonText', () => {
  it('serializes byte for byte as JSON.stringify of the same value', () => {
    expect(String(serialize(body()))).toBe(JSON.stringify(plain()));
    const list = { a: JsonText.list([Buffer.from('{"x":"–"}'), Buffer.from('2')]), b: JsonText.list([]), c: new JsonText('"é"') };
    expect(String(serialize(list))).toBe(JSON.stringify({ a: [{ x: '–' }, 2], b: [], c: 'é' }));
    expect(JSON.stringify(body())).toBe(JSON.stringify(plain()));
  });

  it('is read as its parsed value by _fields and _envelope', () => {
    for (const fields of ['events,total', 'events.venue.city,total', 'rest_url']) expect(filterFields(body(), fields)).toEqual(filterFields(plain(), fields));
    expect(filterFields(body(), 'events')).toEqual({ events: plain().events });
    const shaped = shape({ status: 200, body: body(), headers: {}, query: Object.assign(paramMap(), { _envelope: '1' }), method: 'GET', apiRoot: 'http://x.test/wp-json/', loggedIn: false, origin: undefined, overriddenByHeader: false });
    expect(JSON.parse(String(shaped.body)).body).toEqual(plain());
  });
});

describe('_fields', () => {
  // rest_filter_response_fields intersects PHP arrays: one with none of the fields left is [] in JSON.
  it('leaves an empty list where no listed field is found, as PHP encodes an empty array', () => {
    expect(filterFields(plain(), 'nope')).toEqual([]);
    expect(filterFields(plain(), ['', 'nope'])).toEqual([]);
    expect(filterFields({ a: { b: 1 }, c: 2 }, 'a.x,c')).toEqual({ a: [], c: 2 });
    expect(filterFields([{ id: 1 }, { x: 2 }], 'id')).toEqual([{ id: 1 }, []]);
  });

  it('keeps a found value as it is, an empty object included', () => {
    expect(filterFields({ a: {}, b: 1 }, 'a')).toEqual({ a: {} });
  });

  it('takes every string of a gapped or nested bracket list, as wp_parse_list does, and never fails', () => {
    const item = { id: 1, title: 'A', link: 'l' };
    expect(filterFields(item, parseQueryString('_fields[]=id&_fields[2]=title')._fields)).toEqual({ id: 1, title: 'A' });
    expect(filterFields(item, parseQueryString('_fields[5]=link&_fields[]=id')._fields)).toEqual({ link: 'l', id: 1 });
    expect(filterFields(item, parseQueryString('_fields[]=id&_fields[a][b]=title&_fields[x][]=link')._fields)).toEqual({ id: 1 });
    expect(filterFields([item], parseQueryString('_fields[][]=id')._fields)).toEqual([item]);
    expect(filterFields(item, parseQueryString('_fields=id&_fields=title,link')._fields)).toEqual({ title: 'A', link: 'l' });
  });

  it('splits a JSON body\'s bare number or boolean as PHP prints it (wp_parse_list): `true` names the field `1`, `false` none', () => {
    const item = { id: 1, title: 'A', 1: 'one' };
    expect(filterFields({ id: 1, title: 'A' }, true)).toEqual([]);
    expect(filterFields(item, true)).toEqual({ 1: 'one' });
    expect(filterFields(item, 1)).toEqual({ 1: 'one' });
    expect(filterFields(item, false)).toEqual(item);
  });

  it('names a field by a number or boolean a JSON body lists (wp_parse_list keeps scalars), and finds none under it', () => {
    const item = { id: 1, title: 'A' };
    expect(filterFields(item, [5e-324])).toEqual([]);
    expect(filterFields(item, [false, 'id'])).toEqual({ id: 1 });
    expect(filterFields(item, [null])).toEqual(item);
  });
});
