import { strFromU8, unzipSync } from 'fflate';
import { DOMParser, type Element } from '@xmldom/xmldom';

/**
 * Reads an XLSX workbook as a spreadsheet program does, for tests of the workbooks the services write: the
 * ZIP opened by fflate (a reader of its own, not ours), each part parsed by xmldom (which throws on XML that is
 * not well formed), the sheets found through the package relationships, each cell with its type (a number
 * cell or a text cell, inline or shared), its number format resolved through styles.xml, its font's
 * boldness; and per sheet the frozen rows and the column widths.
 */
export interface ReadCell {
  type: 'number' | 'text';
  value: number | string;
  /** The number format code ("General" when none). */
  format: string;
  bold: boolean;
}

export interface ReadSheet {
  name: string;
  /** By reference (A1). */
  cells: Map<string, ReadCell>;
  /** Rows above the frozen pane; undefined when nothing is frozen. */
  frozenRows: number | undefined;
  /** Widths of columns A, B, … as given by the sheet's cols. */
  widths: number[];
}

export interface ReadWorkbook {
  /** The ZIP's entry names in stored order. */
  entries: string[];
  sheets: ReadSheet[];
}

const BUILT_IN_FORMATS: Record<number, string> = { 0: 'General', 1: '0', 2: '0.00', 3: '#,##0', 4: '#,##0.00', 9: '0%', 10: '0.00%' };

function xml(files: Record<string, Uint8Array>, name: string): Element {
  const bytes = files[name];
  if (!bytes) throw new Error(`the workbook has no part ${name}`);
  return new DOMParser().parseFromString(strFromU8(bytes), 'text/xml').documentElement!;
}

const all = (e: Element, tag: string): Element[] => Array.from(e.getElementsByTagName(tag));
const textOf = (e: Element): string => all(e, 't').map((t) => t.textContent ?? '').join('');

/** Where a relationship's target points, from the part folder `base`. */
function targets(files: Record<string, Uint8Array>, rels: string, base: string): Map<string, { type: string; path: string }> {
  return new Map(
    all(xml(files, rels), 'Relationship').map((r) => {
      const target = r.getAttribute('Target')!;
      return [r.getAttribute('Id')!, { type: r.getAttribute('Type')!.split('/').pop()!, path: target.startsWith('/') ? target.slice(1) : base + target }];
    }),
  );
}

export function readXlsx(bytes: Uint8Array): ReadWorkbook {
  const files = unzipSync(bytes);
  const types = all(xml(files, '[Content_Types].xml'), 'Override').map((o) => o.getAttribute('PartName'));
  const office = [...targets(files, '_rels/.rels', '').values()].find((t) => t.type === 'officeDocument')!.path;
  const folder = office.slice(0, office.lastIndexOf('/') + 1);
  const rels = targets(files, `${folder}_rels/${office.slice(folder.length)}.rels`, folder);
  const stylesPath = [...rels.values()].find((t) => t.type === 'styles')?.path;
  const sharedPath = [...rels.values()].find((t) => t.type === 'sharedStrings')?.path;
  const shared = sharedPath ? all(xml(files, sharedPath), 'si').map(textOf) : [];
  const styles = stylesPath ? xml(files, stylesPath) : undefined;
  const formats = new Map<number, string>(Object.entries(BUILT_IN_FORMATS).map(([k, v]) => [Number(k), v]));
  for (const f of styles ? all(styles, 'numFmt') : []) formats.set(Number(f.getAttribute('numFmtId')), f.getAttribute('formatCode')!);
  const fonts = styles ? all(all(styles, 'fonts')[0]!, 'font').map((f) => all(f, 'b').length > 0) : [];
  const xfs = styles ? all(all(styles, 'cellXfs')[0]!, 'xf') : [];
  return {
    entries: Object.keys(files),
    sheets: all(xml(files, office), 'sheet').map((s) => {
      const path = rels.get(s.getAttribute('r:id')!)!.path;
      if (!types.includes(`/${path}`)) throw new Error(`${path} has no content type`);
      const ws = xml(files, path);
      const cells = new Map<string, ReadCell>();
      for (const c of all(ws, 'c')) {
        const xf = xfs[Number(c.getAttribute('s') || 0)];
        const style = { format: formats.get(Number(xf?.getAttribute('numFmtId') ?? 0)) ?? 'General', bold: fonts[Number(xf?.getAttribute('fontId') ?? 0)] ?? false };
        const t = c.getAttribute('t');
        const v = all(c, 'v')[0]?.textContent ?? '';
        if (t === 'inlineStr') cells.set(c.getAttribute('r')!, { type: 'text', value: textOf(all(c, 'is')[0]!), ...style });
        else if (t === 's') cells.set(c.getAttribute('r')!, { type: 'text', value: shared[Number(v)]!, ...style });
        else if (t === 'str') cells.set(c.getAttribute('r')!, { type: 'text', value: v, ...style });
        else if (!t || t === 'n') cells.set(c.getAttribute('r')!, { type: 'number', value: Number(v), ...style });
        else throw new Error(`cell ${c.getAttribute('r')} of type ${t}`);
      }
      const pane = all(ws, 'pane')[0];
      const widths: number[] = [];
      for (const col of all(ws, 'col')) {
        for (let i = Number(col.getAttribute('min')); i <= Number(col.getAttribute('max')); i++) widths[i - 1] = Number(col.getAttribute('width'));
      }
      return {
        name: s.getAttribute('name')!,
        cells,
        frozenRows: pane?.getAttribute('state') === 'frozen' ? Number(pane.getAttribute('ySplit')) : undefined,
        widths,
      };
    }),
  };
}

/** A sheet's row `r` (1-based) as values, columns A to the last given; null for an empty cell. */
export function rowValues(sheet: ReadSheet, r: number, columns: number): (number | string | null)[] {
  return Array.from({ length: columns }, (_, i) => sheet.cells.get(`${columnName(i)}${r}`)?.value ?? null);
}

export function columnName(index: number): string {
  let name = '';
  for (let i = index + 1; i > 0; i = Math.floor((i - 1) / 26)) name = String.fromCharCode(65 + ((i - 1) % 26)) + name;
  return name;
}
