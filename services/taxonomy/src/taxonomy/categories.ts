import type { DataSource } from 'typeorm';
import type { Caller } from '@green-impact/shared/caller';
import { FailedPreconditionError } from '@green-impact/shared/errors';
import { requireOperator } from '@green-impact/shared/caller';
import type { LanguageCatalog } from '../reference/language-catalog.js';
import { countedIds, MSG } from '../messages.js';
import * as v from '../validation.js';
import { CATEGORY, deleteItem, idsUsing, requireItem } from './items.js';
import { addOrRenameInYear, type Outcome } from './year-named.js';

export interface AddCategoryInput {
  name: string;
  reportingYear: number;
  nameChanged?: string | undefined;
  languageCode: string;
}

/** Categories: the top level of a year's taxonomy. */
export class CategoryStore {
  constructor(
    private readonly ds: DataSource,
    private readonly languages: LanguageCatalog,
  ) {}

  async add(caller: Caller, input: AddCategoryInput): Promise<Outcome> {
    requireOperator(caller);
    const year = v.reportingYear(input.reportingYear);
    const name = v.name('category_name', input.name);
    const newName = v.optionalName('category_name_changed', input.nameChanged);
    const language = this.languages.required(input.languageCode);
    return this.ds.transaction((m) => addOrRenameInYear(m, CATEGORY, year, name, newName, language));
  }

  /** Refused while sub categories or super indicators belong to the category. */
  async remove(caller: Caller, categoryId: number, reportingYear: number): Promise<Outcome> {
    requireOperator(caller);
    const id = v.id('category_id', categoryId);
    const year = v.reportingYear(reportingYear);
    return this.ds.transaction(async (m) => {
      await requireItem(m, CATEGORY, id, year);
      const users: string[] = [];
      const subs = await idsUsing(m, 'sub_categories', 'id', 'category_id', id);
      if (subs.length) users.push(countedIds('sub category', 'sub categories', subs));
      const supers = await idsUsing(m, 'super_indicator_categories', 'super_indicator_id', 'category_id', id);
      if (supers.length) users.push(countedIds('super indicator', 'super indicators', supers));
      if (users.length) throw new FailedPreconditionError(MSG.inUse('category', id, users, 'remove those first'));
      await deleteItem(m, CATEGORY, id);
      return { id, message: MSG.removed('category') };
    });
  }
}
