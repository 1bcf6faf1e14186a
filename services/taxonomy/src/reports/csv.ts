/**
 * RFC 4180 CSV with deterministic bytes: CRLF line ends, a field quoted only when it holds a comma, a quote or
 * a line break (quotes doubled), no byte-order mark. A text cell that a spreadsheet would read as a formula
 * (starting with =, +, -, @, tab or CR) is prefixed with an apostrophe (OWASP's CSV injection advice);
 * numbers are written by the caller and never prefixed.
 */
export type Cell = { text: string } | { number: string } | null;

export const text = (value: string | null | undefined): Cell => (value === null || value === undefined ? null : { text: value });
export const num = (formatted: string | null): Cell => (formatted === null ? null : { number: formatted });

function field(cell: Cell): string {
  if (cell === null) return '';
  const raw = 'number' in cell ? cell.number : /^[=+\-@\t\r]/.test(cell.text) ? `'${cell.text}` : cell.text;
  return /[",\r\n]/.test(raw) ? `"${raw.replace(/"/g, '""')}"` : raw;
}

export function csv(header: readonly string[], rows: readonly Cell[][]): string {
  const lines = [header.map((h) => field({ text: h })), ...rows.map((r) => r.map(field))];
  return lines.map((l) => l.join(',')).join('\r\n') + '\r\n';
}
