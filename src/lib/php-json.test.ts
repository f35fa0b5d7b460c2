import { describe, expect, it } from 'vitest';
import { decodePhpJson } from './php-json.ts';

const decode = (s: string | Buffer) => decodePhpJson(typeof s === 'string' ? Buffer.from(s) : s);
const code = (s: string | Buffer) => {
  const d = decode(s);
  return d.ok ? null : d.error.code;
};

// Each case as the legacy site's json_decode answered it (rest_invalid_json's json_error_code).
describe('json_decode errors, as PHP reports them', () => {
  it('decodes what PHP decodes, surrogate pairs included', () => {
    expect(decode('{"a":"\\ud83d\\ude00","b":[1,2]}')).toEqual({ ok: true, value: { a: '😀', b: [1, 2] } });
    expect(code('null')).toBeNull();
    expect(code('"x"')).toBeNull();
  });

  it('refuses an unpaired surrogate escape (10), which JSON.parse accepts', () => {
    for (const s of ['{"a":"\\ud800"}', '{"a":"\\udc00x"}', '{"a":"\\ud800\\u0041"}', '{"\\ud800":1}']) {
      expect(decode(s), s).toEqual({ ok: false, error: { code: 10, message: 'Single unpaired UTF-16 surrogate in unicode escape' } });
    }
  });

  it('refuses bytes that are not UTF-8 in a string (5) and control characters (3)', () => {
    expect(decode(Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]))).toEqual({ ok: false, error: { code: 5, message: 'Malformed UTF-8 characters, possibly incorrectly encoded' } });
    expect(decode('{"a":"x\ty"}')).toEqual({ ok: false, error: { code: 3, message: 'Control character error, possibly incorrectly encoded' } });
  });

  it('names any other fault a syntax error (4), and the first fault wins', () => {
    for (const s of ['{"a":1,}', '[1', ' ', '{"a":"\\u00"}', '{"a":1}{']) expect(decode(s), s).toEqual({ ok: false, error: { code: 4, message: 'Syntax error' } });
    expect(code('[1,]"\\ud800"')).toBe(4);
    expect(code('["\\ud800",]')).toBe(10);
  });
});

describe('what JSON.parse accepts and PHP refuses', () => {
  it('is found wherever it lies, and what only looks like it is decoded', () => {
    expect(code(`[${'{"a":1},'.repeat(600)}"\\udc00"]`)).toBe(10);
    expect(code(Buffer.concat([Buffer.from('{"k'), Buffer.from([0xc3, 0x28]), Buffer.from('":1}')]))).toBe(5);
    expect(code(`[${'[],'.repeat(600)}${'['.repeat(512)}${']'.repeat(512)}]`)).toBe(1);
    expect(decode('["\\\\ud800"]')).toEqual({ ok: true, value: ['\\ud800'] });
    expect(decode(`[${'[],'.repeat(600)}"[[["]`)).toEqual({ ok: true, value: [...Array.from({ length: 600 }, () => []), '[[['] });
  });
});

describe('json_decode depth', () => {
  it('refuses arrays or objects nested 512 deep (1)', () => {
    expect(code(`${'['.repeat(511)}${']'.repeat(511)}`)).toBeNull();
    expect(code(`${'{"a":'.repeat(512)}1${'}'.repeat(512)}`)).toBe(1);
    expect(decode(`${'['.repeat(512)}${']'.repeat(512)}`)).toEqual({ ok: false, error: { code: 1, message: 'Maximum stack depth exceeded' } });
  });
});
