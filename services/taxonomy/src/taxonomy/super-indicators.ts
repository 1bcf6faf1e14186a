import type { DataSource, EntityManager } from 'typeorm';
import type { Caller } from '@green-impact/shared/caller';
import { FailedPreconditionError, NotFoundError } from '@green-impact/shared/errors';
import { requireOperator } from '@green-impact/shared/caller';
import type { LanguageCatalog } from '../reference/language-catalog.js';
import { DEFAULT_LANGUAGE } from '../reference/languages.js';
import { countedIds, MSG } from '../messages.js';
import * as v from '../validation.js';
import { addByName, assertNameFree, CATEGORY, deleteItem, idsUsing, requireIdByName, requireItem, SUPER_INDICATOR, updateItem } from './items.js';
import type { Outcome } from './year-named.js';

export interface AddSuperIndicatorInput {
  name: string;
  categoryId: number;
  reportingYear: number;
  nameChanged?: string | undefined;
  categoryIdChanged?: number | undefined;
  languageCode?: string | undefined;
}

/**
 * Super indicators: named uniquely in their year, and linked to one or more categories (one row of
 * getSuperIndicators per link). A super indicator always has at least one category: removing its last
 * link removes it.
 */
export class SuperIndicatorStore {
  constructor(
    private readonly ds: DataSource,
    private readonly languages: LanguageCatalog,
  ) {}

  /**
   * Without changes: adds the super indicator (or finds it by name) and links it to the category.
   * With `nameChanged`: renames it (in every category). With `categoryIdChanged`: moves its link from
   * `categoryId` to that category.
   */
  async add(caller: Caller, input: AddSuperIndicatorInput): Promise<Outcome> {
    requireOperator(caller);
    const year = v.reportingYear(input.reportingYear);
    const name = v.name('super_indicator_name', input.name);
    const categoryId = v.id('category_id', input.categoryId);
    const newName = v.optionalName('super_indicator_name_changed', input.nameChanged);
    const newCategoryId = v.optionalId('category_id_changed', input.categoryIdChanged);
    const language = this.languages.required(input.languageCode, DEFAULT_LANGUAGE);
    const scope = { reporting_year: year };
    return this.ds.transaction(async (m) => {
      await requireItem(m, CATEGORY, categoryId, year);
      if (newName === undefined && newCategoryId === undefined) {
        const r = await addByName(m, SUPER_INDICATOR, scope, { reporting_year: year, name, language_code: language.code });
        const linked = await link(m, r.id, categoryId, year);
        const message = r.created
          ? MSG.added('super indicator', r.id)
          : linked
            ? MSG.superIndicatorLinked(categoryId, r.id)
            : MSG.exists('super indicator', r.id);
        return { id: r.id, message };
      }
      const id = await requireIdByName(m, SUPER_INDICATOR, scope, name, `in ${year}`);
      if (newName !== undefined) {
        await assertNameFree(m, SUPER_INDICATOR, scope, newName, `in ${year}`, id);
        await updateItem(m, SUPER_INDICATOR, id, { name: newName }, language);
      }
      if (newCategoryId !== undefined && newCategoryId !== categoryId) {
        await requireItem(m, CATEGORY, newCategoryId, year);
        if (!(await unlink(m, id, categoryId))) throw new NotFoundError(MSG.notInCategory(id, categoryId));
        await link(m, id, newCategoryId, year);
      }
      return { id, message: MSG.changed('super indicator') };
    });
  }

  /**
   * With `categoryId`, removes the super indicator from that category only (unless it is its last
   * one); otherwise removes it from every category and itself. Refused while indicators belong to it.
   */
  async remove(caller: Caller, superIndicatorId: number, reportingYear: number, categoryId?: number): Promise<Outcome> {
    requireOperator(caller);
    const id = v.id('super_indicator_id', superIndicatorId);
    const year = v.reportingYear(reportingYear);
    const onlyCategory = v.optionalId('category_id', categoryId);
    return this.ds.transaction(async (m) => {
      await requireItem(m, SUPER_INDICATOR, id, year);
      if (onlyCategory !== undefined) {
        const categories = await idsUsing(m, 'super_indicator_categories', 'category_id', 'super_indicator_id', id);
        if (!categories.includes(onlyCategory)) throw new NotFoundError(MSG.notInCategory(id, onlyCategory));
        if (categories.length > 1) {
          await unlink(m, id, onlyCategory);
          return { id, message: MSG.superIndicatorUnlinked(onlyCategory) };
        }
      }
      const indicators = await idsUsing(m, 'indicators', 'id', 'super_indicator_id', id);
      if (indicators.length) {
        throw new FailedPreconditionError(
          MSG.inUse('super indicator', id, [countedIds('indicator', 'indicators', indicators)], 'remove those first'),
        );
      }
      await deleteItem(m, SUPER_INDICATOR, id);
      return { id, message: MSG.removed('super indicator') };
    });
  }
}

/** Links a super indicator to a category; false when it already was. */
async function link(m: EntityManager, superIndicatorId: number, categoryId: number, year: number): Promise<boolean> {
  const rows: unknown[] = await m.query(
    `INSERT INTO taxonomy.super_indicator_categories (super_indicator_id, category_id, reporting_year) VALUES ($1, $2, $3)
     ON CONFLICT DO NOTHING RETURNING 1`,
    [superIndicatorId, categoryId, year],
  );
  return rows.length > 0;
}

async function unlink(m: EntityManager, superIndicatorId: number, categoryId: number): Promise<boolean> {
  const [, count]: [unknown[], number] = await m.query(
    `DELETE FROM taxonomy.super_indicator_categories WHERE super_indicator_id = $1 AND category_id = $2`,
    [superIndicatorId, categoryId],
  );
  return count > 0;
}
