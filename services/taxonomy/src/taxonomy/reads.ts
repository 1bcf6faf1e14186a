import type { DataSource } from 'typeorm';
import type { Category, Indicator, SubCategory, SuperIndicator, TaxonomyRow, Unit } from '@green-impact/proto/greenimpact/taxonomy/v1/taxonomy';
import type { LanguageCatalog } from '../reference/language-catalog.js';
import * as v from '../validation.js';
import { CATEGORY, INDICATOR, SUB_CATEGORY, SUPER_INDICATOR, UNIT, type ItemKind } from './items.js';
import { goalMapsOfYear as goalMaps, type GoalMaps } from './goal-names.js';

/**
 * Reads of one reporting year. Every name comes in the requested language when a translation exists,
 * else in the item's original language; `language` / `language_code` tell which, per name. ($1 is the
 * year, $2 the requested language code or null.)
 */
export class TaxonomyReader {
  constructor(
    private readonly ds: DataSource,
    private readonly languages: LanguageCatalog,
  ) {}

  async categories(reportingYear: number, languageCode?: string): Promise<Category[]> {
    const [year, lang] = this.args(reportingYear, languageCode);
    const c = localized(CATEGORY, 'c');
    const rows: { id: number; name: string; lang: string }[] = await this.ds.query(
      `SELECT c.id, ${c.name} AS name, ${c.lang} AS lang FROM taxonomy.categories c ${c.join}
       WHERE c.reporting_year = $1 ORDER BY c.id`,
      [year, lang],
    );
    return rows.map((r) => ({ categoryId: r.id, categoryName: r.name, ...this.language(r.lang), reportingYear: year }));
  }

  async subCategories(reportingYear: number, languageCode?: string): Promise<SubCategory[]> {
    const [year, lang] = this.args(reportingYear, languageCode);
    const s = localized(SUB_CATEGORY, 's');
    const c = localized(CATEGORY, 'c');
    const rows: { id: number; name: string; lang: string; category_id: number; category_name: string }[] = await this.ds.query(
      `SELECT s.id, ${s.name} AS name, ${s.lang} AS lang, c.id AS category_id, ${c.name} AS category_name
       FROM taxonomy.sub_categories s JOIN taxonomy.categories c ON c.id = s.category_id ${s.join} ${c.join}
       WHERE s.reporting_year = $1 ORDER BY c.id, s.id`,
      [year, lang],
    );
    const goals = await goalMaps(this.ds, year, lang);
    return rows.map((r) => ({
      subCategoryId: r.id,
      subCategoryName: r.name,
      categoryId: r.category_id,
      categoryName: r.category_name,
      ...goalsOf(goals, r.id),
      ...this.language(r.lang),
      reportingYear: year,
    }));
  }

  /** One row per (super indicator, category) link. */
  async superIndicators(reportingYear: number, languageCode?: string): Promise<SuperIndicator[]> {
    const [year, lang] = this.args(reportingYear, languageCode);
    const si = localized(SUPER_INDICATOR, 'si');
    const c = localized(CATEGORY, 'c');
    const rows: { id: number; name: string; lang: string; category_id: number; category_name: string }[] = await this.ds.query(
      `SELECT si.id, ${si.name} AS name, ${si.lang} AS lang, c.id AS category_id, ${c.name} AS category_name
       FROM taxonomy.super_indicator_categories l
       JOIN taxonomy.super_indicators si ON si.id = l.super_indicator_id
       JOIN taxonomy.categories c ON c.id = l.category_id ${si.join} ${c.join}
       WHERE l.reporting_year = $1 ORDER BY si.id, c.id`,
      [year, lang],
    );
    return rows.map((r) => ({
      superIndicatorId: r.id,
      superIndicatorName: r.name,
      categoryId: r.category_id,
      categoryName: r.category_name,
      ...this.language(r.lang),
      reportingYear: year,
    }));
  }

  async indicators(reportingYear: number, languageCode?: string): Promise<Indicator[]> {
    const [year, lang] = this.args(reportingYear, languageCode);
    const i = localized(INDICATOR, 'i');
    const si = localized(SUPER_INDICATOR, 'si');
    const u = localized(UNIT, 'u');
    const rows: { id: number; name: string; lang: string; si_id: number; si_name: string; unit_id: number; unit_name: string }[] =
      await this.ds.query(
        `SELECT i.id, ${i.name} AS name, ${i.lang} AS lang, si.id AS si_id, ${si.name} AS si_name, u.id AS unit_id, ${u.name} AS unit_name
         FROM taxonomy.indicators i
         JOIN taxonomy.super_indicators si ON si.id = i.super_indicator_id
         JOIN taxonomy.units u ON u.id = i.unit_id ${i.join} ${si.join} ${u.join}
         WHERE i.reporting_year = $1 ORDER BY i.id`,
        [year, lang],
      );
    return rows.map((r) => ({
      indicatorId: r.id,
      indicatorName: r.name,
      superIndicatorId: r.si_id,
      superIndicatorName: r.si_name,
      unitId: r.unit_id,
      unitName: r.unit_name,
      ...this.language(r.lang),
      reportingYear: year,
    }));
  }

  async units(reportingYear: number, languageCode?: string): Promise<Unit[]> {
    const [year, lang] = this.args(reportingYear, languageCode);
    const u = localized(UNIT, 'u');
    const rows: { id: number; name: string; lang: string }[] = await this.ds.query(
      `SELECT u.id, ${u.name} AS name, ${u.lang} AS lang FROM taxonomy.units u ${u.join}
       WHERE u.reporting_year = $1 ORDER BY u.id`,
      [year, lang],
    );
    return rows.map((r) => ({ unitId: r.id, unitName: r.name, ...this.language(r.lang), reportingYear: year }));
  }

  /**
   * Full rows (§2.1): one per (category, sub category, super indicator, indicator) that is complete,
   * i.e. the category has the super indicator and the super indicator the indicator. `language` is
   * that of the indicator name, the row's most specific text.
   */
  async taxonomy(reportingYear: number, languageCode?: string): Promise<TaxonomyRow[]> {
    const [year, lang] = this.args(reportingYear, languageCode);
    const c = localized(CATEGORY, 'c');
    const s = localized(SUB_CATEGORY, 's');
    const si = localized(SUPER_INDICATOR, 'si');
    const i = localized(INDICATOR, 'i');
    const u = localized(UNIT, 'u');
    const rows: FullRow[] = await this.ds.query(
      `SELECT c.id AS c_id, ${c.name} AS c_name, s.id AS s_id, ${s.name} AS s_name, si.id AS si_id, ${si.name} AS si_name,
              i.id AS i_id, ${i.name} AS i_name, ${i.lang} AS lang, u.id AS u_id, ${u.name} AS u_name
       FROM taxonomy.sub_categories s
       JOIN taxonomy.categories c ON c.id = s.category_id
       JOIN taxonomy.super_indicator_categories l ON l.category_id = c.id
       JOIN taxonomy.super_indicators si ON si.id = l.super_indicator_id
       JOIN taxonomy.indicators i ON i.super_indicator_id = si.id
       JOIN taxonomy.units u ON u.id = i.unit_id
       ${c.join} ${s.join} ${si.join} ${i.join} ${u.join}
       WHERE s.reporting_year = $1 ORDER BY c.id, s.id, si.id, i.id`,
      [year, lang],
    );
    const goals = await goalMaps(this.ds, year, lang);
    return rows.map((r) => ({
      categoryId: r.c_id,
      categoryName: r.c_name,
      subCategoryId: r.s_id,
      subCategoryName: r.s_name,
      superIndicatorId: r.si_id,
      superIndicatorName: r.si_name,
      indicatorId: r.i_id,
      indicatorName: r.i_name,
      unitId: r.u_id,
      unitName: r.u_name,
      ...goalsOf(goals, r.s_id),
      ...this.language(r.lang),
    }));
  }

  private args(reportingYear: number, languageCode: string | undefined): [number, string | null] {
    return [v.reportingYear(reportingYear), this.languages.optional(languageCode)?.code ?? null];
  }

  private language(code: string): { language: string; languageCode: string } {
    return { language: this.languages.nameOf(code), languageCode: code };
  }
}

interface FullRow {
  c_id: number;
  c_name: string;
  s_id: number;
  s_name: string;
  si_id: number;
  si_name: string;
  i_id: number;
  i_name: string;
  lang: string;
  u_id: number;
  u_name: string;
}

/** SQL fragments for an item's name in the requested language ($2), falling back to its own. */
export function localized(kind: ItemKind, alias: string): { join: string; name: string; lang: string } {
  const t = `${alias}_t`;
  return {
    join: `LEFT JOIN taxonomy.${kind.translationTable} ${t} ON ${t}.${kind.fk} = ${alias}.id AND ${t}.language_code = $2`,
    name: `COALESCE(${t}.name, ${alias}.name)`,
    lang: `COALESCE(${t}.language_code, ${alias}.language_code)`,
  };
}

function goalsOf(goals: GoalMaps, subCategoryId: number): { sdg: Record<string, string>; euObjective: Record<string, string> } {
  return { sdg: goals.sdg.get(subCategoryId) ?? {}, euObjective: goals.euObjective.get(subCategoryId) ?? {} };
}
