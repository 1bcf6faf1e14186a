import type { ImpactRecordColumns } from '@green-impact/proto/greenimpact/portfolio/v1/portfolio';
import { recordAt } from '@green-impact/shared/impact-record-columns';
import { impactRecordRow } from './rows.js';

/**
 * The /v1/call JSON of a page of impact records in columns, written without an object per record: a
 * position's 24 records share all but a few keys of impactRecordRow, so the text of those keys is
 * JSON.stringify'd once per position (and a framework row's names once per page), and each record adds
 * only its own figures. The bytes are JSON.stringify(records.map(impactRecordRow)) between the brackets:
 * the layout is read off impactRecordRow's own answer, so its keys, order and values stay its.
 */

/** The keys of impactRecordRow that are a record's own figures, and the column each is in. */
const FIGURES: Record<string, (c: ImpactRecordColumns) => number[]> = {
  impact_id: (c) => c.id,
  value: (c) => c.value,
  attributed_volume: (c) => c.attributedVolume,
  indicator_value: (c) => c.indicatorValue,
  sub_category_volume: (c) => c.subCategoryVolume,
};

/**
 * Figures a record takes from its framework row, so the same few values on every position's records: each
 * value's text is written once a page and reused (value and attributed_volume are nearly all distinct).
 */
const ROW_FIGURES = new Set(['indicator_value', 'sub_category_volume']);

/** The keys of impactRecordRow that name the record's framework row (ImpactRecordRowNames). */
const NAMES = new Set(['category_id', 'category_name', 'sub_category_id', 'sub_category_name', 'super_indicator_id', 'super_indicator_name', 'indicator_id', 'indicator_name', 'unit_id', 'unit_name']);

/**
 * A record's JSON in pieces: fixed text (separators included) between slots, each slot a figure's column
 * or the row's names: text, slot, text, …, slot, text.
 */
type Slot = number[] | typeof ROW_NAMES;
const ROW_NAMES = Symbol('row names');
interface Layout {
  texts: string[];
  slots: Slot[];
  /** Per slot: a figure of the framework row (ROW_FIGURES). */
  rowFigure: boolean[];
}

/** `"a":1,"b":2`: the keys' pairs as JSON.stringify writes them inside an object. */
const pairs = (row: Record<string, unknown>, keys: string[]) => JSON.stringify(Object.fromEntries(keys.map((k) => [k, row[k]]))).slice(1, -1);

/** A number as JSON.stringify writes it. */
const num = (x: number) => (Number.isFinite(x) ? String(x) : 'null');

/** The layout of the records of record n's position: its keys' text, slots for the rest. */
function layout(c: ImpactRecordColumns, n: number): Layout {
  const row: Record<string, unknown> = impactRecordRow(recordAt(c, n));
  const out: Layout = { texts: [], slots: [], rowFigure: [] };
  let text = '{';
  let run: string[] = [];
  const flush = () => {
    if (run.length > 0) text += `${text === '{' ? '' : ','}${pairs(row, run)}`;
    run = [];
  };
  const slot = (s: Slot, key?: string) => {
    flush();
    text += text === '{' ? '' : ',';
    if (key !== undefined) text += `${JSON.stringify(key)}:`;
    out.texts.push(text);
    out.slots.push(s);
    out.rowFigure.push(key !== undefined && ROW_FIGURES.has(key));
    text = '';
  };
  for (const key of Object.keys(row)) {
    const figure = FIGURES[key];
    if (figure) slot(figure(c), key);
    else if (NAMES.has(key)) {
      // One slot for the consecutive names; names elsewhere would be written twice.
      if (text !== '' || run.length > 0 || out.slots.at(-1) !== ROW_NAMES) {
        if (out.slots.includes(ROW_NAMES)) throw new Error(`impactRecordRow's row names must be consecutive keys (${key}).`);
        slot(ROW_NAMES);
      }
    } else run.push(key);
  }
  flush();
  out.texts.push(`${text}}`);
  return out;
}

/** The text of record n's row names, in impactRecordRow's order. */
function namesOf(c: ImpactRecordColumns, n: number): string {
  const row: Record<string, unknown> = impactRecordRow(recordAt(c, n));
  return pairs(row, Object.keys(row).filter((k) => NAMES.has(k)));
}

/** Every record of the page as JSON.stringify writes an array's items (without the brackets). */
export function impactRecordsJson(c: ImpactRecordColumns): string {
  const names: string[] = [];
  const layouts: Layout[] = [];
  const parts: string[] = [];
  // A number's text is the same whatever its record (Map keys: SameValueZero, and -0 and 0 both write 0).
  const rowFigures = new Map<number, string>();
  const rowFigure = (x: number) => {
    let text = rowFigures.get(x);
    if (text === undefined) rowFigures.set(x, (text = num(x)));
    return text;
  };
  for (let n = 0; n < c.id.length; n++) {
    if (n > 0) parts.push(',');
    const { texts, slots, rowFigure: isRowFigure } = (layouts[c.position[n]!] ??= layout(c, n));
    for (let i = 0; i < slots.length; i++) {
      const slot = slots[i]!;
      parts.push(texts[i]!, slot === ROW_NAMES ? (names[c.rowName[n]!] ??= namesOf(c, n)) : isRowFigure[i] ? rowFigure(slot[n]!) : num(slot[n]!));
    }
    parts.push(texts[slots.length]!);
  }
  return parts.join('');
}
