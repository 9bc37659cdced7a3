/**
 * CSV for spreadsheets (RFC 4180): every cell quoted when it holds a comma, quote or line break, quotes
 * doubled, CRLF between rows. A cell that a spreadsheet would read as a formula (starting with = + - @, a
 * tab or a carriage return) is prefixed with ' so a value someone typed into a public form can never run.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(value: unknown): string {
  let text = value === null || value === undefined ? '' : value instanceof Date ? value.toISOString() : String(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) || text !== text.trim() ? `"${text.replace(/"/g, '""')}"` : text;
}

export function toCsv(rows: readonly (readonly unknown[])[]): string {
  return rows.map((row) => row.map(csvCell).join(',')).join('\r\n') + '\r\n';
}
