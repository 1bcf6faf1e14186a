import type { DataSource, EntityManager } from 'typeorm';
import type { LanguageCatalog } from '../reference/language-catalog.js';
import { goalMapsOfYear } from '../taxonomy/goal-names.js';
import { CATEGORY, INDICATOR, requireItem, SUB_CATEGORY, SUPER_INDICATOR, UNIT } from '../taxonomy/items.js';
import { localized } from '../taxonomy/reads.js';
import { affected, type OwnedKind } from './owned.js';

/**
 * The (sub category, indicator) rows of frameworks and projects for a year. A sub category's volume is
 * one figure per owner and year (the s(k) of the impact formula): every row of the sub category shows
 * it, and adding a row with another volume changes it in all of them, so it is never counted twice.
 */
export interface RowInput {
  subCategoryId: number;
  indicatorId: number;
  volume: number;
  value: number;
  reportingYear: number;
}

/** Adds or updates one row; true when it was added. The sub category and indicator must exist in the year. */
export async function upsertRow(m: EntityManager, kind: OwnedKind, ownerId: number, row: RowInput): Promise<boolean> {
  await requireItem(m, SUB_CATEGORY, row.subCategoryId, row.reportingYear);
  await requireItem(m, INDICATOR, row.indicatorId, row.reportingYear);
  const t = `taxonomy.${kind.rowTable}`;
  const rows: { inserted: boolean }[] = await m.query(
    `INSERT INTO ${t} (${kind.fk}, reporting_year, sub_category_id, indicator_id, sub_category_volume, indicator_value)
     VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (${kind.fk}, sub_category_id, indicator_id) DO UPDATE
       SET sub_category_volume = EXCLUDED.sub_category_volume, indicator_value = EXCLUDED.indicator_value, updated_at = now()
     RETURNING (xmax = 0) AS inserted`,
    [ownerId, row.reportingYear, row.subCategoryId, row.indicatorId, row.volume, row.value],
  );
  await m.query(
    `UPDATE ${t} SET sub_category_volume = $3, updated_at = now()
     WHERE ${kind.fk} = $1 AND sub_category_id = $2 AND sub_category_volume <> $3`,
    [ownerId, row.subCategoryId, row.volume],
  );
  return rows[0]!.inserted;
}

/** Removes one row; false when there was none. */
export async function removeRow(
  m: EntityManager,
  kind: OwnedKind,
  ownerId: number,
  subCategoryId: number,
  indicatorId: number,
  year: number,
): Promise<boolean> {
  const result: unknown = await m.query(
    `DELETE FROM taxonomy.${kind.rowTable}
     WHERE ${kind.fk} = $1 AND sub_category_id = $2 AND indicator_id = $3 AND reporting_year = $4`,
    [ownerId, subCategoryId, indicatorId, year],
  );
  return affected(result) > 0;
}

/** Removes every row of a sub category for the year; the number removed. */
export async function removeSubCategoryRows(m: EntityManager, kind: OwnedKind, ownerId: number, subCategoryId: number, year: number): Promise<number> {
  const result: unknown = await m.query(
    `DELETE FROM taxonomy.${kind.rowTable} WHERE ${kind.fk} = $1 AND sub_category_id = $2 AND reporting_year = $3`,
    [ownerId, subCategoryId, year],
  );
  return affected(result);
}

/** Removes the year specifics of the year; false when there were none. */
export async function removeYearSpecifics(m: EntityManager, kind: OwnedKind, ownerId: number, year: number): Promise<boolean> {
  const result: unknown = await m.query(`DELETE FROM taxonomy.${kind.yearTable} WHERE ${kind.fk} = $1 AND reporting_year = $2`, [
    ownerId,
    year,
  ]);
  return affected(result) > 0;
}

/** A row of a detail read, names in the requested language where translated (the currency is added by the caller). */
export interface DetailRow {
  categoryId: number;
  categoryName: string;
  subCategoryId: number;
  subCategoryName: string;
  subCategoryVolume: number;
  superIndicatorId: number;
  superIndicatorName: string;
  indicatorId: number;
  indicatorName: string;
  indicatorValue: number;
  unitId: number;
  unitName: string;
  year: number;
  sdg: Record<string, string>;
  euObjective: Record<string, string>;
  /** Language of the indicator name, the row's most specific text (as in full taxonomy rows). */
  language: string;
  languageCode: string;
}

interface RawRow {
  c_id: number;
  c_name: string;
  s_id: number;
  s_name: string;
  volume: number;
  si_id: number;
  si_name: string;
  i_id: number;
  i_name: string;
  lang: string;
  value: number;
  u_id: number;
  u_name: string;
}

/**
 * The rows of one owner and year with the taxonomy's names (translated name by name with fallback, as
 * in the taxonomy reads) and the sub category's SDG / EU objective maps.
 */
export async function readRows(
  db: DataSource | EntityManager,
  languages: LanguageCatalog,
  kind: OwnedKind,
  ownerId: number,
  year: number,
  languageCode: string | null,
): Promise<DetailRow[]> {
  const c = localized(CATEGORY, 'c');
  const s = localized(SUB_CATEGORY, 's');
  const si = localized(SUPER_INDICATOR, 'si');
  const i = localized(INDICATOR, 'i');
  const u = localized(UNIT, 'u');
  const rows: RawRow[] = await db.query(
    `SELECT c.id AS c_id, ${c.name} AS c_name, s.id AS s_id, ${s.name} AS s_name, r.sub_category_volume AS volume,
            si.id AS si_id, ${si.name} AS si_name, i.id AS i_id, ${i.name} AS i_name, ${i.lang} AS lang,
            r.indicator_value AS value, u.id AS u_id, ${u.name} AS u_name
     FROM taxonomy.${kind.rowTable} r
     JOIN taxonomy.sub_categories s ON s.id = r.sub_category_id
     JOIN taxonomy.categories c ON c.id = s.category_id
     JOIN taxonomy.indicators i ON i.id = r.indicator_id
     JOIN taxonomy.super_indicators si ON si.id = i.super_indicator_id
     JOIN taxonomy.units u ON u.id = i.unit_id
     ${c.join} ${s.join} ${si.join} ${i.join} ${u.join}
     WHERE r.reporting_year = $1 AND r.${kind.fk} = $3
     ORDER BY c.id, s.id, si.id, i.id`,
    [year, languageCode, ownerId],
  );
  if (rows.length === 0) return [];
  const goals = await goalMapsOfYear(db, year, languageCode);
  return rows.map((r) => ({
    categoryId: r.c_id,
    categoryName: r.c_name,
    subCategoryId: r.s_id,
    subCategoryName: r.s_name,
    subCategoryVolume: r.volume,
    superIndicatorId: r.si_id,
    superIndicatorName: r.si_name,
    indicatorId: r.i_id,
    indicatorName: r.i_name,
    indicatorValue: r.value,
    unitId: r.u_id,
    unitName: r.u_name,
    year,
    sdg: goals.sdg.get(r.s_id) ?? {},
    euObjective: goals.euObjective.get(r.s_id) ?? {},
    language: languages.nameOf(r.lang),
    languageCode: r.lang,
  }));
}
