/** CSV as the legacy plugins write it (PHP's fputcsv with every string quoted), safe to open in a spreadsheet. */
import { stringify } from 'csv-stringify/sync';

/**
 * A cell a spreadsheet would run as a formula gets a leading `'` (OWASP CSV injection advice);
 * the CSV reader takes it off again, so an export/import round trip keeps the value.
 */
const neutraliseFormula = (s: string): string => (/^[=+\-@\t\r]/.test(s) ? `'${s}` : s);

/** PHP-style CSV: numbers bare, every string double-quoted with `"` doubled, `\n` line ends. */
export function csvLines(rows: Array<Array<string | number>>): string {
  return stringify(
    rows.map((r) => r.map((c) => (typeof c === 'string' ? neutraliseFormula(c) : c))),
    { quoted_string: true, record_delimiter: '\n', cast: { number: (n) => String(n) } },
  );
}
