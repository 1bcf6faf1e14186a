import type { DataSource } from 'typeorm';
import type { Caller } from '@green-impact/shared/caller';
import { FailedPreconditionError } from '@green-impact/shared/errors';
import { requireOperator } from '@green-impact/shared/caller';
import type { LanguageCatalog } from '../reference/language-catalog.js';
import { DEFAULT_LANGUAGE } from '../reference/languages.js';
import { countedIds, MSG } from '../messages.js';
import * as v from '../validation.js';
import { deleteItem, idsUsing, requireItem, UNIT } from './items.js';
import { addOrRenameInYear, type Outcome } from './year-named.js';

export interface AddUnitInput {
  name: string;
  reportingYear: number;
  nameChanged?: string | undefined;
  /** Default "en" (the spec does not mark it required for units). */
  languageCode?: string | undefined;
}

/** Units the indicators' values are given in (tCO2e/year, MWh/year, …), per year. */
export class UnitStore {
  constructor(
    private readonly ds: DataSource,
    private readonly languages: LanguageCatalog,
  ) {}

  async add(caller: Caller, input: AddUnitInput): Promise<Outcome> {
    requireOperator(caller);
    const year = v.reportingYear(input.reportingYear);
    const name = v.name('unit_name', input.name);
    const newName = v.optionalName('unit_name_changed', input.nameChanged);
    const language = this.languages.required(input.languageCode, DEFAULT_LANGUAGE);
    return this.ds.transaction((m) => addOrRenameInYear(m, UNIT, year, name, newName, language));
  }

  /** Refused while indicators are given in the unit. */
  async remove(caller: Caller, unitId: number, reportingYear: number): Promise<Outcome> {
    requireOperator(caller);
    const id = v.id('unit_id', unitId);
    const year = v.reportingYear(reportingYear);
    return this.ds.transaction(async (m) => {
      await requireItem(m, UNIT, id, year);
      const indicators = await idsUsing(m, 'indicators', 'id', 'unit_id', id);
      if (indicators.length) {
        throw new FailedPreconditionError(
          MSG.inUse('unit', id, [countedIds('indicator', 'indicators', indicators)], 'remove those or give them another unit first'),
        );
      }
      await deleteItem(m, UNIT, id);
      return { id, message: MSG.removed('unit') };
    });
  }
}
