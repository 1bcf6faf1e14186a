import { zip } from './zip.js';

/**
 * A small Office Open XML workbook writer (ECMA-376 SpreadsheetML, the parts Excel, LibreOffice and the
 * common readers need): per sheet a header block (a title, then label and value lines), the column headers
 * (bold, wrapped, frozen so they stay in view) and the rows, with typed cells: text as inline strings,
 * numbers as numbers with a number format (amounts with `decimals` decimals and grouped digits, percentages,
 * integers). Column widths follow the longest content. Deterministic: no document properties (so no
 * creation date), parts in a fixed order, zipped by zip.ts with fixed timestamps. Text cells are never
 * formulas in SpreadsheetML, so, unlike the CSV, text needs no defusing.
 */
export type NumberFormat = 'amount' | 'percent' | 'integer';
/** A percent cell holds the fraction (0.25 shows as 25.00 %). */
export type XCell = { text: string } | { number: number; format: NumberFormat } | null;

export interface SheetSpec {
  /** At most 31 characters, none of []:*?/\ (Excel's rule). */
  name: string;
  title: string;
  fields: readonly (readonly [string, XCell])[];
  header: readonly string[];
  rows: readonly XCell[][];
}

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PKG_REL = 'http://schemas.openxmlformats.org/package/2006/relationships';
const DECL = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';

/** Indexes into cellXfs of styles(). */
const STYLE = { header: 1, title: 2, integer: 3, amount: 4, percent: 5, label: 6 } as const;

export function xlsx(sheets: readonly SheetSpec[], decimals: number): Buffer {
  const part = (name: string, xml: string) => ({ name, data: Buffer.from(DECL + xml, 'utf8') });
  const n = sheets.length;
  return zip([
    part('[Content_Types].xml', contentTypes(n)),
    part('_rels/.rels', `<Relationships xmlns="${PKG_REL}"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`),
    part(
      'xl/workbook.xml',
      `<workbook xmlns="${MAIN}" xmlns:r="${REL}"><bookViews><workbookView activeTab="0"/></bookViews><sheets>` +
        sheets.map((s, i) => `<sheet name="${esc(s.name)}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`).join('') +
        '</sheets></workbook>',
    ),
    part(
      'xl/_rels/workbook.xml.rels',
      `<Relationships xmlns="${PKG_REL}">` +
        sheets.map((_, i) => `<Relationship Id="rId${i + 1}" Type="${REL}/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`).join('') +
        `<Relationship Id="rId${n + 1}" Type="${REL}/styles" Target="styles.xml"/></Relationships>`,
    ),
    part('xl/styles.xml', styles(decimals)),
    ...sheets.map((s, i) => part(`xl/worksheets/sheet${i + 1}.xml`, sheet(s, i === 0, decimals))),
  ]);
}

function contentTypes(sheets: number): string {
  const ct = 'application/vnd.openxmlformats-officedocument.spreadsheetml';
  const overrides = [`<Override PartName="/xl/workbook.xml" ContentType="${ct}.sheet.main+xml"/>`, `<Override PartName="/xl/styles.xml" ContentType="${ct}.styles+xml"/>`];
  for (let i = 1; i <= sheets; i++) overrides.push(`<Override PartName="/xl/worksheets/sheet${i}.xml" ContentType="${ct}.worksheet+xml"/>`);
  return (
    '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>' +
    overrides.join('') +
    '</Types>'
  );
}

function styles(decimals: number): string {
  const fraction = decimals > 0 ? `.${'0'.repeat(decimals)}` : '';
  const font = (bold: boolean, size: number) => `<font>${bold ? '<b/>' : ''}<sz val="${size}"/><name val="Calibri"/><family val="2"/></font>`;
  const xf = (numFmtId: number, fontId: number, borderId: number, more = '') =>
    `<xf numFmtId="${numFmtId}" fontId="${fontId}" fillId="0" borderId="${borderId}" xfId="0"${numFmtId ? ' applyNumberFormat="1"' : ''}${fontId ? ' applyFont="1"' : ''}${more}`;
  return (
    `<styleSheet xmlns="${MAIN}">` +
    `<numFmts count="2"><numFmt numFmtId="164" formatCode="#,##0${fraction}"/><numFmt numFmtId="165" formatCode="0${fraction}%"/></numFmts>` +
    `<fonts count="3">${font(false, 11)}${font(true, 11)}${font(true, 14)}</fonts>` +
    '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
    '<borders count="2"><border><left/><right/><top/><bottom/><diagonal/></border><border><left/><right/><top/><bottom style="thin"><color auto="1"/></bottom><diagonal/></border></borders>' +
    '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
    '<cellXfs count="7">' +
    `${xf(0, 0, 0)}/>` +
    `${xf(0, 1, 1, ' applyBorder="1" applyAlignment="1"')}><alignment vertical="top" wrapText="1"/></xf>` +
    `${xf(0, 2, 0)}/>${xf(1, 0, 0)}/>${xf(164, 0, 0)}/>${xf(165, 0, 0)}/>${xf(0, 1, 0)}/>` +
    '</cellXfs><cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>'
  );
}

function sheet(s: SheetSpec, selected: boolean, decimals: number): string {
  const lines: string[] = [row(1, [[{ text: s.title }, STYLE.title]])];
  s.fields.forEach(([label, value], i) => lines.push(row(i + 2, [[{ text: label }, STYLE.label], [value, undefined]])));
  const headerRow = s.fields.length + 3; // a blank line between the block and the column headers
  lines.push(row(headerRow, s.header.map((h) => [{ text: h }, STYLE.header])));
  s.rows.forEach((r, i) => lines.push(row(headerRow + 1 + i, r.map((c) => [c, undefined]))));
  const lastRow = headerRow + s.rows.length;
  const first = `A${headerRow + 1}`;
  return (
    `<worksheet xmlns="${MAIN}" xmlns:r="${REL}"><dimension ref="A1:${column(s.header.length - 1)}${lastRow}"/>` +
    `<sheetViews><sheetView${selected ? ' tabSelected="1"' : ''} workbookViewId="0">` +
    `<pane ySplit="${headerRow}" topLeftCell="${first}" activePane="bottomLeft" state="frozen"/><selection pane="bottomLeft" activeCell="${first}" sqref="${first}"/>` +
    '</sheetView></sheetViews><sheetFormatPr defaultRowHeight="15"/>' +
    `<cols>${widths(s, decimals).map((w, i) => `<col min="${i + 1}" max="${i + 1}" width="${w}" customWidth="1"/>`).join('')}</cols>` +
    `<sheetData>${lines.join('')}</sheetData></worksheet>`
  );
}

function row(r: number, cells: [XCell, number | undefined][]): string {
  const xml = cells.map(([c, style], i) => cell(`${column(i)}${r}`, c, style)).join('');
  return `<row r="${r}">${xml}</row>`;
}

function cell(ref: string, c: XCell, style: number | undefined): string {
  if (c === null) return '';
  if ('text' in c) {
    const space = /^\s|\s$|\n/.test(c.text) ? ' xml:space="preserve"' : '';
    return `<c r="${ref}"${style ? ` s="${style}"` : ''} t="inlineStr"><is><t${space}>${esc(c.text)}</t></is></c>`;
  }
  if (!Number.isFinite(c.number)) return '';
  return `<c r="${ref}" s="${STYLE[c.format]}"><v>${String(c.number)}</v></c>`;
}

/** Character widths: the longest shown content of the column, its header counting only up to 24 (it wraps). */
function widths(s: SheetSpec, decimals: number): number[] {
  return s.header.map((h, i) => {
    let longest = Math.min(h.length, 24);
    for (const r of s.rows) longest = Math.max(longest, shown(r[i] ?? null, decimals));
    return Math.min(60, Math.max(8, longest) + 2);
  });
}

function shown(c: XCell, decimals: number): number {
  if (c === null) return 0;
  if ('text' in c) return Math.max(...c.text.split('\n').map((l) => l.length));
  if (c.format === 'integer') return String(c.number).length;
  const digits = Math.abs(c.format === 'percent' ? c.number * 100 : c.number).toFixed(decimals);
  const whole = digits.split('.')[0]!.length;
  return digits.length + Math.floor((whole - 1) / 3) + (c.number < 0 ? 1 : 0) + (c.format === 'percent' ? 1 : 0);
}

/** 0 → A, 25 → Z, 26 → AA. */
export function column(index: number): string {
  let name = '';
  for (let i = index + 1; i > 0; i = Math.floor((i - 1) / 26)) name = String.fromCharCode(65 + ((i - 1) % 26)) + name;
  return name;
}

/** XML text: escaped, and the characters XML 1.0 cannot hold (C0 controls other than tab and line ends) dropped. */
function esc(value: string): string {
  return value
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}
