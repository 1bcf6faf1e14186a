import type { ImpactRecord, ImpactRecordColumns } from '@green-impact/proto/greenimpact/portfolio/v1/portfolio';

/**
 * Reading a page of impact records in columns (StreamImpactRecords with `columns`): record n is its
 * position's computation inputs, its framework row's names and its own figures. The portfolio service
 * answers a page that was not asked in columns with these records whole; the gateway reads a position's
 * record from them to lay out the JSON of all of its records.
 */

/** Record n of a page of columns, whole. */
export function recordAt(c: ImpactRecordColumns, n: number): ImpactRecord {
  return {
    ...c.positions[c.position[n]!]!,
    ...c.rowNames[c.rowName[n]!]!,
    id: c.id[n]!,
    value: c.value[n]!,
    attributedVolume: c.attributedVolume[n]!,
    indicatorValue: c.indicatorValue[n]!,
    subCategoryVolume: c.subCategoryVolume[n]!,
  };
}

/** Every record of a page of columns, whole. */
export const recordsOf = (c: ImpactRecordColumns): ImpactRecord[] => c.id.map((_, n) => recordAt(c, n));
