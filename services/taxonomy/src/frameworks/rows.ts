import type { DataSource, EntityManager } from 'typeorm';
import type { LanguageCatalog } from '../reference/language-catalog.js';
import { goalMapsOfYear } from '../taxonomy/goal-names.js';
import { CATEGORY, INDICATOR, requireItem, SUB_CATEGORY, SUPER_INDICATOR, UNIT } from '../taxonomy/items.js';
import { localized } from '../taxonomy/reads.js';
import { affected, type OwnedKind } from './owned.js';
import type { ValueMetadata } from './value-metadata.js';

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
  /** Each part kept as stored when absent (issue 37). */
  metadata?: ValueMetadata | undefined;
}

/** Adds or updates one row; true when it was added. The sub category and indicator must exist in the year. */
export async function upsertRow(m: EntityManager, kind: OwnedKind, ownerId: number, row: RowInput): Promise<boolean> {
  await requireItem(m, SUB_CATEGORY, row.subCategoryId, row.reportingYear);
  await requireItem(m, INDICATOR, row.indicatorId, row.reportingYear);
  const t = `taxonomy.${kind.rowTable}`;
  const md = row.metadata ?? {};
  const kept = (column: string, param: number, type: string) => `${column} = COALESCE($${param}::${type}, ${t}.${column})`;
  const rows: { inserted: boolean }[] = await m.query(
    `INSERT INTO ${t} (${kind.fk}, reporting_year, sub_category_id, indicator_id, sub_category_volume, indicator_value,
                       value_type, value_basis, baseline_value, emission_factor, methodology_source, methodology_version)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
     ON CONFLICT (${kind.fk}, sub_category_id, indicator_id) DO UPDATE
       SET sub_category_volume = EXCLUDED.sub_category_volume, indicator_value = EXCLUDED.indicator_value,
           ${kept('value_type', 7, 'varchar')}, ${kept('value_basis', 8, 'varchar')}, ${kept('baseline_value', 9, 'float8')},
           ${kept('emission_factor', 10, 'float8')}, ${kept('methodology_source', 11, 'varchar')},
           ${kept('methodology_version', 12, 'varchar')}, updated_at = now()
     RETURNING (xmax = 0) AS inserted`,
    [
      ownerId, row.reportingYear, row.subCategoryId, row.indicatorId, row.volume, row.value,
      md.valueType ?? null, md.valueBasis ?? null, md.baselineValue ?? null, md.emissionFactor ?? null,
      md.methodologySource ?? null, md.methodologyVersion ?? null,
    ],
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
  /** Issue 37; absent when not given. */
  indicatorValueType?: string;
  indicatorValueBasis?: string;
  baselineValue?: number;
  emissionFactor?: number;
  methodologySource?: string;
  methodologyVersion?: string;
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
  value_type: string | null;
  value_basis: string | null;
  baseline_value: number | null;
  emission_factor: number | null;
  methodology_source: string | null;
  methodology_version: string | null;
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
            r.indicator_value AS value, u.id AS u_id, ${u.name} AS u_name, r.value_type, r.value_basis, r.baseline_value,
            r.emission_factor, r.methodology_source, r.methodology_version
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
    ...present({
      indicatorValueType: r.value_type,
      indicatorValueBasis: r.value_basis,
      baselineValue: r.baseline_value,
      emissionFactor: r.emission_factor,
      methodologySource: r.methodology_source,
      methodologyVersion: r.methodology_version,
    }),
  }));
}

/** The entries whose value is not null (proto optionals are absent, never null). */
function present<T extends Record<string, unknown>>(o: T): { [K in keyof T]?: Exclude<T[K], null> } {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null)) as { [K in keyof T]?: Exclude<T[K], null> };
}
