/**
 * PHP's and WordPress's text functions, as they define them, for the legacy site's markup: the
 * history's `message_html` is the logger's output (esc_html of the interpolated message for most
 * loggers) and its `message` wp_strip_all_tags(html_entity_decode(message_html)); oEmbed documents
 * (esc_attr, and esc_html in their XML form); the iCal feed's text (html_entity_decode, wp_strip_all_tags).
 */

// What PHP's trim() and ltrim() take off: space, tab, line feed, carriage return, NUL and vertical tab.
// biome-ignore lint/suspicious/noControlCharactersInRegex: PHP's list names NUL and the vertical tab.
const PHP_TRIMMED_START = /^[ \t\n\r\0\x0B]+/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: as above.
const PHP_TRIMMED_END = /[ \t\n\r\0\x0B]+$/;

/** PHP's ltrim() with its default characters. */
export const phpLtrim = (s: string) => s.replace(PHP_TRIMMED_START, '');
/** PHP's trim() with its default characters. */
export const phpTrim = (s: string) => phpLtrim(s).replace(PHP_TRIMMED_END, '');

// What wp_kses_no_null drops: the C0 controls but tab, line feed and carriage return.
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters it names.
const KSES_NULLS = /[\x00-\x08\x0B\x0C\x0E-\x1F]/g;

/** wp_kses_no_null as wp_kses runs it (`slash_zero` kept): NUL and the other C0 controls but tab, line feed and carriage return dropped. */
export const ksesNoNull = (s: string) => s.replace(KSES_NULLS, '');

/** HTML 4.01's named character references (PHP's ENT_HTML401 table), name → code point. */
const HTML401 = new Map<string, number>(
  (
    'quot:34,amp:38,lt:60,gt:62,nbsp:160,iexcl:161,cent:162,pound:163,curren:164,yen:165,brvbar:166,sect:167,uml:168,copy:169,ordf:170,' +
    'laquo:171,not:172,shy:173,reg:174,macr:175,deg:176,plusmn:177,sup2:178,sup3:179,acute:180,micro:181,para:182,middot:183,cedil:184,' +
    'sup1:185,ordm:186,raquo:187,frac14:188,frac12:189,frac34:190,iquest:191,Agrave:192,Aacute:193,Acirc:194,Atilde:195,Auml:196,' +
    'Aring:197,AElig:198,Ccedil:199,Egrave:200,Eacute:201,Ecirc:202,Euml:203,Igrave:204,Iacute:205,Icirc:206,Iuml:207,ETH:208,Ntilde:209,' +
    'Ograve:210,Oacute:211,Ocirc:212,Otilde:213,Ouml:214,times:215,Oslash:216,Ugrave:217,Uacute:218,Ucirc:219,Uuml:220,Yacute:221,' +
    'THORN:222,szlig:223,agrave:224,aacute:225,acirc:226,atilde:227,auml:228,aring:229,aelig:230,ccedil:231,egrave:232,eacute:233,' +
    'ecirc:234,euml:235,igrave:236,iacute:237,icirc:238,iuml:239,eth:240,ntilde:241,ograve:242,oacute:243,ocirc:244,otilde:245,ouml:246,' +
    'divide:247,oslash:248,ugrave:249,uacute:250,ucirc:251,uuml:252,yacute:253,thorn:254,yuml:255,OElig:338,oelig:339,Scaron:352,' +
    'scaron:353,Yuml:376,fnof:402,circ:710,tilde:732,Alpha:913,Beta:914,Gamma:915,Delta:916,Epsilon:917,Zeta:918,Eta:919,Theta:920,' +
    'Iota:921,Kappa:922,Lambda:923,Mu:924,Nu:925,Xi:926,Omicron:927,Pi:928,Rho:929,Sigma:931,Tau:932,Upsilon:933,Phi:934,Chi:935,Psi:936,' +
    'Omega:937,alpha:945,beta:946,gamma:947,delta:948,epsilon:949,zeta:950,eta:951,theta:952,iota:953,kappa:954,lambda:955,mu:956,nu:957,' +
    'xi:958,omicron:959,pi:960,rho:961,sigmaf:962,sigma:963,tau:964,upsilon:965,phi:966,chi:967,psi:968,omega:969,thetasym:977,upsih:978,' +
    'piv:982,ensp:8194,emsp:8195,thinsp:8201,zwnj:8204,zwj:8205,lrm:8206,rlm:8207,ndash:8211,mdash:8212,lsquo:8216,rsquo:8217,sbquo:8218,' +
    'ldquo:8220,rdquo:8221,bdquo:8222,dagger:8224,Dagger:8225,bull:8226,hellip:8230,permil:8240,prime:8242,Prime:8243,lsaquo:8249,' +
    'rsaquo:8250,oline:8254,frasl:8260,euro:8364,image:8465,weierp:8472,real:8476,trade:8482,alefsym:8501,larr:8592,uarr:8593,rarr:8594,' +
    'darr:8595,harr:8596,crarr:8629,lArr:8656,uArr:8657,rArr:8658,dArr:8659,hArr:8660,forall:8704,part:8706,exist:8707,empty:8709,' +
    'nabla:8711,isin:8712,notin:8713,ni:8715,prod:8719,sum:8721,minus:8722,lowast:8727,radic:8730,prop:8733,infin:8734,ang:8736,and:8743,' +
    'or:8744,cap:8745,cup:8746,int:8747,there4:8756,sim:8764,cong:8773,asymp:8776,ne:8800,equiv:8801,le:8804,ge:8805,sub:8834,sup:8835,' +
    'nsub:8836,sube:8838,supe:8839,oplus:8853,otimes:8855,perp:8869,sdot:8901,lceil:8968,rceil:8969,lfloor:8970,rfloor:8971,lang:9001,' +
    'rang:9002,loz:9674,spades:9824,clubs:9827,hearts:9829,diams:9830'
  )
    .split(',')
    .map((pair) => {
      const [name, cp] = pair.split(':');
      return [name, Number(cp)] as const;
    }),
);

/** WordPress's valid_unicode: the characters XML allows. */
function validUnicode(cp: number): boolean {
  return cp === 0x9 || cp === 0xa || cp === 0xd || (cp >= 0x20 && cp <= 0xd7ff) || (cp >= 0xe000 && cp <= 0xfffd) || (cp >= 0x10000 && cp <= 0x10ffff);
}

/**
 * wp_kses_normalize_entities (HTML context): every `&` becomes `&amp;` but for valid numeric
 * references (decimal padded to three digits, hex without leading zeros) and the names on
 * WordPress's list (HTML 4.01's and `apos`).
 */
function normalizeEntities(s: string): string {
  return s
    .replaceAll('&', '&amp;')
    .replace(/&amp;#(0*[1-9][0-9]{0,6});/g, (_m, d: string) => (validUnicode(Number(d)) ? `&#${d.replace(/^0+/, '').padStart(3, '0')};` : `&amp;#${d};`))
    .replace(/&amp;#[Xx](0*[1-9A-Fa-f][0-9A-Fa-f]{0,5});/g, (_m, h: string) => (validUnicode(parseInt(h, 16)) ? `&#x${h.replace(/^0+/, '')};` : `&amp;#x${h};`))
    .replace(/&amp;([A-Za-z]{2,8}[0-9]{0,2});/g, (m, name: string) => (HTML401.has(name) || name === 'apos' ? `&${name};` : m));
}

/** A character reference PHP's htmlspecialchars leaves as is when not double encoding (HTML 4.01). */
const KEPT_REFERENCE = /^&(?:#[0-9]+|#[xX][0-9a-fA-F]+|[A-Za-z][A-Za-z0-9]*);/;
const SPECIAL: Record<string, string> = { '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#039;' };

/**
 * PHP's htmlspecialchars (ENT_QUOTES, double encoding on): `&<>"'` as `&amp; &lt; &gt; &quot; &#039;`,
 * the `&` of a reference already there too (escHtml keeps those).
 */
export function htmlSpecialChars(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#039;');
}

/**
 * WordPress's esc_html (and esc_attr, alike for plain text): entities normalized, then htmlspecialchars
 * (ENT_QUOTES) without encoding the references already there (a numeric one up to U+10FFFF, a name
 * HTML 4.01 knows: `&apos;` is not one).
 */
export function escHtml(text: string): string {
  if (!/[&<>"']/.test(text)) return text;
  const s = normalizeEntities(text);
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '&') {
      const ref = KEPT_REFERENCE.exec(s.slice(i, i + 40))?.[0];
      const kept = ref && (ref[1] === '#' ? numericValue(ref) <= 0x10ffff : HTML401.has(ref.slice(1, -1)));
      out += kept ? ref : '&amp;';
      if (kept) i += ref.length - 1;
    } else out += SPECIAL[c] ?? c;
  }
  return out;
}

function numericValue(ref: string): number {
  const hex = ref[2] === 'x' || ref[2] === 'X';
  return hex ? parseInt(ref.slice(3, -1), 16) : Number(ref.slice(2, -1));
}

/** What PHP decodes in an HTML 4.01 document (unicode_cp_is_allowed). */
function decodable(cp: number): boolean {
  return (cp >= 0x20 && cp <= 0x7e) || cp === 0x0a || cp === 0x09 || cp === 0x0d || (cp >= 0xa0 && cp <= 0xd7ff) || (cp >= 0xe000 && cp <= 0x10ffff);
}

/** PHP's html_entity_decode with its default flags (ENT_QUOTES | ENT_SUBSTITUTE | ENT_HTML401). */
export function htmlEntityDecode(s: string): string {
  return s.replace(/&(?:#([0-9]+)|#[xX]([0-9a-fA-F]+)|([A-Za-z0-9]+));/g, (m, dec: string | undefined, hex: string | undefined, name: string | undefined) => {
    if (name !== undefined) {
      const cp = HTML401.get(name);
      return cp === undefined ? m : String.fromCodePoint(cp);
    }
    const cp = dec !== undefined ? Number(dec) : parseInt(hex!, 16);
    return cp <= 0x10ffff && decodable(cp) ? String.fromCodePoint(cp) : m;
  });
}

const SPACE = new Set([' ', '\t', '\n', '\v', '\f', '\r']);

/**
 * PHP's strip_tags without allowed tags: its state machine over text, tags (quotes and nested `<`
 * tracked), `<?` processing instructions, `<!` declarations and `<!-- -->` comments. A `<` before
 * white space is text; an unclosed tag runs to the end.
 */
export function stripTags(s: string): string {
  let out = '';
  let state = 0;
  let depth = 0;
  let inQ = '';
  let lc = '';
  let br = 0;
  let isXml = false;
  const at = (i: number) => (i >= 0 && i < s.length ? s[i] : '');
  for (let p = 0; p < s.length; p++) {
    const c = s[p];
    if (state === 0) {
      if (c === '\0') continue;
      if (c === '<') {
        if (inQ) continue;
        if (SPACE.has(at(p + 1))) {
          out += c;
          continue;
        }
        lc = '<';
        state = 1;
      } else if (c === '>') {
        if (depth) depth--;
        else if (!inQ) out += c;
      } else out += c;
    } else if (state === 1) {
      if (c === '<') {
        if (inQ || SPACE.has(at(p + 1))) continue;
        depth++;
      } else if (c === '>') {
        if (depth) depth--;
        else if (!inQ) {
          lc = '>';
          if (isXml && at(p - 1) === '-') continue;
          inQ = '';
          state = 0;
          isXml = false;
        }
      } else if (c === '"' || c === "'") {
        if (p !== 0 && (!inQ || c === inQ)) inQ = inQ ? '' : c;
      } else if (c === '!' && at(p - 1) === '<') {
        state = 3;
        lc = c;
      } else if (c === '?' && at(p - 1) === '<') {
        br = 0;
        state = 2;
      }
    } else if (state === 2) {
      if (c === '(' && lc !== '"' && lc !== "'") {
        lc = '(';
        br++;
      } else if (c === ')' && lc !== '"' && lc !== "'") {
        lc = ')';
        br--;
      } else if (c === '>') {
        if (depth) depth--;
        else if (!inQ && !br && lc !== '"' && at(p - 1) === '?') {
          inQ = '';
          state = 0;
        }
      } else if (c === '"' || c === "'") {
        if (at(p - 1) !== '\\') {
          if (lc === c) lc = '';
          else if (lc !== '\\') lc = c;
        }
        if (p !== 0 && (!inQ || c === inQ)) inQ = inQ ? '' : c;
      } else if ((c === 'l' || c === 'L') && p > 4 && /^<\?xm$/i.test(s.slice(p - 4, p)) && s[p - 3] === '?') {
        state = 1;
        isXml = true;
      }
    } else if (state === 3) {
      if (c === '>') {
        if (depth) depth--;
        else if (!inQ) {
          inQ = '';
          state = 0;
        }
      } else if (c === '"' || c === "'") {
        if (p !== 0 && at(p - 1) !== '\\' && (!inQ || c === inQ)) inQ = inQ ? '' : c;
      } else if (c === '-' && at(p - 1) === '-' && at(p - 2) === '!') {
        state = 4;
      } else if ((c === 'e' || c === 'E') && p > 6 && /^doctyp$/i.test(s.slice(p - 6, p))) {
        state = 1;
      }
    } else if (c === '>' && !inQ && at(p - 1) === '-' && at(p - 2) === '-') {
      inQ = '';
      state = 0;
    }
  }
  return out;
}

/** WordPress's wp_strip_all_tags: script and style elements with their content, then strip_tags, then PHP's trim. */
export function stripAllTags(s: string): string {
  return phpTrim(stripTags(withoutScriptsAndStyles(s)));
}

/**
 * What wp_strip_all_tags' `<(script|style)[^>]*?>.*?</\1>` (caseless) removes, in one pass: its regex
 * looks for a closing tag after every opening one, quadratic in a text of unclosed `<script>`s (400 KB
 * took 14 s). An opening tag runs to the first `>`; its element to the first closing tag of its name;
 * once a name has no closing tag left, no later opening tag of it can match either.
 */
function withoutScriptsAndStyles(s: string): string {
  // Only ASCII letters lowered: the indexes stay those of `s`.
  const lower = s.replace(/[A-Z]+/g, (m) => m.toLowerCase());
  const closable = { script: true, style: true };
  let out = '';
  let kept = 0;
  for (let lt = lower.indexOf('<'); lt >= 0; lt = lower.indexOf('<', lt + 1)) {
    const name = lower.startsWith('script', lt + 1) ? 'script' : lower.startsWith('style', lt + 1) ? 'style' : null;
    if (name === null || !closable[name]) continue;
    const gt = lower.indexOf('>', lt);
    if (gt < 0) break;
    const close = lower.indexOf(`</${name}>`, gt + 1);
    if (close < 0) {
      closable[name] = false;
      continue;
    }
    out += s.slice(kept, lt);
    kept = close + name.length + 3;
    lt = kept - 1;
  }
  return out + s.slice(kept);
}

/** wp_pre_kses_less_than: a `<` that opens no tag (none closes before the next `<` or the end) is escaped. */
const lessThanOpeningNoTag = (s: string) => s.replace(/<[^>]*?((?=<)|>|$)/g, (m) => (m.includes('>') ? m : escHtml(m)));

// What trim() takes off a slashed text (wp_unslash comes later): its default characters but NUL, which is `\0` there.
// biome-ignore lint/suspicious/noControlCharactersInRegex: PHP's list names the vertical tab.
const SLASHED_TRIMMED = /^[ \t\n\r\x0B]+|[ \t\n\r\x0B]+$/g;
/** PHP's trim() of a slashed text: a NUL byte stays. */
export const slashedTrim = (s: string) => s.replace(SLASHED_TRIMMED, '');

/**
 * WordPress's sanitize_text_field: with a `<`, one that opens no tag becomes `&lt;` and tags go
 * (wp_strip_all_tags); runs of white space become one space, the ends are trimmed, and
 * percent-encoded octets are removed (then spaces again). `slashed`: run on a slashed text, as the
 * `pre_term_name` filter is, where a NUL byte is `\0` and no trim takes it off.
 */
export function sanitizeTextField(s: string, o: { slashed?: boolean } = {}): string {
  const trim = o.slashed ? slashedTrim : phpTrim;
  let out = s;
  if (out.includes('<')) out = stripAllTags(lessThanOpeningNoTag(out)).replaceAll('<\n', '&lt;\n');
  out = trim(out.replace(/[\r\n\t ]+/g, ' '));
  if (!/%[a-f0-9]{2}/i.test(out)) return out;
  return trim(withoutOctets(out).replace(/ +/g, ' '));
}

/**
 * sanitize_text_field's loop removing %xx octets until none is left (one removal can make another:
 * `%%4141`), in one pass: octets never overlap (`%` is no hex digit), so removing each as it is
 * completed leaves what any order of removals leaves, without the loop's quadratic time.
 */
function withoutOctets(s: string): string {
  const out: string[] = [];
  for (const c of s) {
    out.push(c);
    const n = out.length;
    if (n >= 3 && out[n - 3] === '%' && /^[a-f0-9]{2}$/i.test(out[n - 2]! + out[n - 1]!)) out.length = n - 3;
  }
  return out.join('');
}
