import type { DataSource } from 'typeorm';
import type { Caller } from '@green-impact/shared/caller';
import { FailedPreconditionError } from '@green-impact/shared/errors';
import { requireOperator } from '@green-impact/shared/caller';
import { rowUsersOf } from '../frameworks/usage.js';
import type { LanguageCatalog } from '../reference/language-catalog.js';
import { MSG } from '../messages.js';
import * as v from '../validation.js';
import { addByName, assertNameFree, CATEGORY, deleteItem, requireIdByName, requireItem, SUB_CATEGORY, updateItem } from './items.js';
import type { Outcome } from './year-named.js';

export interface AddSubCategoryInput {
  name: string;
  categoryId: number;
  reportingYear: number;
  nameChanged?: string | undefined;
  categoryIdChanged?: number | undefined;
  languageCode: string;
}

/** Sub categories: named uniquely within their category; SDGs and EU objectives link to them. */
export class SubCategoryStore {
  constructor(
    private readonly ds: DataSource,
    private readonly languages: LanguageCatalog,
  ) {}

  /**
   * Adds (or finds) the sub category of that name in the category; with `nameChanged` and/or
   * `categoryIdChanged`, renames and/or moves the one found by its current name in `categoryId`.
   */
  async add(caller: Caller, input: AddSubCategoryInput): Promise<Outcome> {
    requireOperator(caller);
    const year = v.reportingYear(input.reportingYear);
    const name = v.name('sub_category_name', input.name);
    const categoryId = v.id('category_id', input.categoryId);
    const newName = v.optionalName('sub_category_name_changed', input.nameChanged);
    const newCategoryId = v.optionalId('category_id_changed', input.categoryIdChanged);
    const language = this.languages.required(input.languageCode);
    return this.ds.transaction(async (m) => {
      await requireItem(m, CATEGORY, categoryId, year);
      const scope = { category_id: categoryId };
      if (newName === undefined && newCategoryId === undefined) {
        const r = await addByName(m, SUB_CATEGORY, scope, {
          reporting_year: year,
          category_id: categoryId,
          name,
          language_code: language.code,
        });
        return { id: r.id, message: r.created ? MSG.added('sub category', r.id) : MSG.exists('sub category', r.id) };
      }
      const id = await requireIdByName(m, SUB_CATEGORY, scope, name, `in category ${categoryId} in ${year}`);
      const current = await requireItem(m, SUB_CATEGORY, id, year);
      const targetCategory = newCategoryId ?? categoryId;
      if (targetCategory !== categoryId) await requireItem(m, CATEGORY, targetCategory, year);
      const targetName = newName ?? current.name;
      await assertNameFree(m, SUB_CATEGORY, { category_id: targetCategory }, targetName, `in category ${targetCategory}`, id);
      await updateItem(
        m,
        SUB_CATEGORY,
        id,
        { ...(newName !== undefined ? { name: newName } : {}), category_id: targetCategory },
        newName !== undefined ? language : undefined,
      );
      return { id, message: MSG.changed('sub category') };
    });
  }

  /** Removes the sub category with its translations and its SDG / EU objective links; refused while framework or project rows use it. */
  async remove(caller: Caller, subCategoryId: number, reportingYear: number): Promise<Outcome> {
    requireOperator(caller);
    const id = v.id('sub_category_id', subCategoryId);
    const year = v.reportingYear(reportingYear);
    return this.ds.transaction(async (m) => {
      await requireItem(m, SUB_CATEGORY, id, year);
      const users = await rowUsersOf(m, 'sub_category_id', id);
      if (users.length) throw new FailedPreconditionError(MSG.inUse('sub category', id, users, 'remove those rows first'));
      await deleteItem(m, SUB_CATEGORY, id);
      return { id, message: MSG.removed('sub category') };
    });
  }
}
