/**
 * PHP's json_decode as far as its errors go: what it refuses that JSON.parse accepts (an unpaired
 * UTF-16 surrogate escape, bytes that are not UTF-8, nesting deeper than 511), and the error code and message it reports for
 * the first fault its scanner meets (json_last_error / json_last_error_msg), which WordPress passes
 * on in its `rest_invalid_json` error.
 */
import { isUtf8 } from 'node:buffer';

export interface PhpJsonError {
  code: number;
  message: string;
}

const SYNTAX: PhpJsonError = { code: 4, message: 'Syntax error' };
const CTRL_CHAR: PhpJsonError = { code: 3, message: 'Control character error, possibly incorrectly encoded' };
const UTF8: PhpJsonError = { code: 5, message: 'Malformed UTF-8 characters, possibly incorrectly encoded' };
const UTF16: PhpJsonError = { code: 10, message: 'Single unpaired UTF-16 surrogate in unicode escape' };

const DEPTH: PhpJsonError = { code: 1, message: 'Maximum stack depth exceeded' };

/** json_decode's default depth (512) counts the value inside the innermost array too: 511 nested arrays or objects at most. */
const MAX_DEPTH = 511;

export type Decoded = { ok: true; value: unknown } | { ok: false; error: PhpJsonError };

/**
 * Decodes a JSON body as PHP would, or gives the error PHP would report. JSON.parse decides first; the
 * scanner reads the body only when it fails (PHP's error code names the first fault) or when the body
 * may hold what JSON.parse accepts and PHP refuses.
 */
export function decodePhpJson(raw: Buffer, reviver?: (key: string, value: unknown) => unknown): Decoded {
  const text = raw.toString('utf8');
  const badUtf8 = !isUtf8(raw);
  let value: unknown;
  try {
    value = JSON.parse(text, reviver);
  } catch {
    return { ok: false, error: new Scanner(text, badUtf8).document() ?? SYNTAX };
  }
  const fault = badUtf8 || SURROGATE_ESCAPE.test(text) || openers(text) > MAX_DEPTH ? new Scanner(text, badUtf8).document() : null;
  return fault ? { ok: false, error: fault } : { ok: true, value };
}

/** A `\u` escape of a UTF-16 surrogate, maybe unpaired (or only looking like one, after an escaped backslash). */
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;

/** How many arrays and objects the text opens at most (brackets in strings count too), counted up to one past MAX_DEPTH: never less than its depth. */
function openers(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length && n <= MAX_DEPTH; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x5b || c === 0x7b) n++;
  }
  return n;
}

class Fault {
  readonly error: PhpJsonError;
  constructor(error: PhpJsonError) {
    this.error = error;
  }
}

/** The JSON grammar, read left to right as PHP's scanner and parser do: the first fault met is the error. */
class Scanner {
  private i = 0;
  private readonly text: string;
  /** The body is not UTF-8: a U+FFFD in a string stands for bytes PHP refuses. */
  private readonly badUtf8: boolean;
  constructor(text: string, badUtf8: boolean) {
    this.text = text;
    this.badUtf8 = badUtf8;
  }

  document(): PhpJsonError | null {
    try {
      this.value(0);
      this.space();
      if (this.i < this.text.length) throw new Fault(SYNTAX);
      return null;
    } catch (e) {
      if (e instanceof Fault) return e.error;
      throw e;
    }
  }

  private space(): void {
    while (/[ \t\n\r]/.test(this.text[this.i] ?? '')) this.i++;
  }

  private value(depth: number): void {
    this.space();
    const c = this.text[this.i];
    if (c === '{' || c === '[') this.container(c, depth + 1);
    else if (c === '"') this.string();
    else this.scalar();
  }

  private scalar(): void {
    const token = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null/y;
    token.lastIndex = this.i;
    if (!token.test(this.text)) throw new Fault(SYNTAX);
    this.i = token.lastIndex;
  }

  private container(open: '{' | '[', depth: number): void {
    if (depth > MAX_DEPTH) throw new Fault(DEPTH);
    const close = open === '{' ? '}' : ']';
    this.i++;
    this.space();
    if (this.text[this.i] === close) {
      this.i++;
      return;
    }
    for (;;) {
      if (open === '{') {
        this.space();
        if (this.text[this.i] !== '"') throw new Fault(SYNTAX);
        this.string();
        this.space();
        if (this.text[this.i++] !== ':') throw new Fault(SYNTAX);
      }
      this.value(depth);
      this.space();
      const next = this.text[this.i++];
      if (next === close) return;
      if (next !== ',') throw new Fault(SYNTAX);
    }
  }

  private string(): void {
    const t = this.text;
    for (this.i++; ; this.i++) {
      if (this.i >= t.length) throw new Fault(SYNTAX);
      const c = t.charCodeAt(this.i);
      if (c === 0x22) {
        this.i++;
        return;
      }
      if (c < 0x20) throw new Fault(CTRL_CHAR);
      if (c === 0xfffd && this.badUtf8) throw new Fault(UTF8);
      if (c !== 0x5c) continue;
      const e = t[this.i + 1] ?? '';
      if ('"\\/bfnrt'.includes(e) && e !== '') {
        this.i++;
        continue;
      }
      const unit = hexAt(t, this.i + 2);
      if (e !== 'u' || unit === null) throw new Fault(SYNTAX);
      if (isLow(unit)) throw new Fault(UTF16);
      if (isHigh(unit)) {
        if (!(t[this.i + 6] === '\\' && t[this.i + 7] === 'u' && isLow(hexAt(t, this.i + 8)))) throw new Fault(UTF16);
        this.i += 6;
      }
      this.i += 5;
    }
  }
}

const hexAt = (text: string, i: number) => (/^[0-9a-f]{4}$/i.test(text.slice(i, i + 4)) ? Number.parseInt(text.slice(i, i + 4), 16) : null);
const isHigh = (u: number | null) => u !== null && u >= 0xd800 && u <= 0xdbff;
const isLow = (u: number | null) => u !== null && u >= 0xdc00 && u <= 0xdfff;
