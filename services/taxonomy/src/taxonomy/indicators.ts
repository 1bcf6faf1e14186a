import { assertUnitTakesValuesOf } from './unit-signs.js';
import type { DataSource } from 'typeorm';
import type { Caller } from '@green-impact/shared/caller';
import { FailedPreconditionError, InvalidArgumentError } from '@green-impact/shared/errors';
import { requireOperator } from '@green-impact/shared/caller';
import { rowUsersOf } from '../frameworks/usage.js';
import type { LanguageCatalog } from '../reference/language-catalog.js';
import { DEFAULT_LANGUAGE } from '../reference/languages.js';
import { MSG } from '../messages.js';
import * as v from '../validation.js';
import {
  addByName,
  assertNameFree,
  deleteItem,
  findIdByName,
  INDICATOR,
  requireIdByName,
  requireItem,
  SUPER_INDICATOR,
  UNIT,
  updateItem,
} from './items.js';
import type { Outcome } from './year-named.js';

export interface AddIndicatorInput {
  name: string;
  superIndicatorId: number;
  unitId?: number | undefined;
  reportingYear: number;
  nameChanged?: string | undefined;
  superIndicatorIdChanged?: number | undefined;
  unitIdChanged?: number | undefined;
  languageCode?: string | undefined;
}

/** Indicators: named uniquely under their super indicator, each with the unit its values are given in. */
export class IndicatorStore {
  constructor(
    private readonly ds: DataSource,
    private readonly languages: LanguageCatalog,
  ) {}

  /**
   * Without changes: adds the indicator (unit required) or finds it by name under the super indicator.
   * With changes: renames, moves to another super indicator and/or changes the unit of the indicator
   * found by its current name under `superIndicatorId`.
   */
  async add(caller: Caller, input: AddIndicatorInput): Promise<Outcome> {
    requireOperator(caller);
    const year = v.reportingYear(input.reportingYear);
    const name = v.name('indicator_name', input.name);
    const superIndicatorId = v.id('super_indicator_id', input.superIndicatorId);
    const unitId = v.optionalId('unit_id', input.unitId);
    const newName = v.optionalName('indicator_name_changed', input.nameChanged);
    const newSuperIndicatorId = v.optionalId('super_indicator_id_changed', input.superIndicatorIdChanged);
    const newUnitId = v.optionalId('unit_id_changed', input.unitIdChanged);
    const language = this.languages.required(input.languageCode, DEFAULT_LANGUAGE);
    return this.ds.transaction(async (m) => {
      await requireItem(m, SUPER_INDICATOR, superIndicatorId, year);
      if (unitId !== undefined) await requireItem(m, UNIT, unitId, year);
      const scope = { super_indicator_id: superIndicatorId };
      if (newName === undefined && newSuperIndicatorId === undefined && newUnitId === undefined) {
        const existing = await findIdByName(m, INDICATOR, scope, name);
        if (existing !== undefined) return { id: existing, message: MSG.exists('indicator', existing) };
        if (unitId === undefined) throw new InvalidArgumentError(MSG.unitRequired);
        const r = await addByName(m, INDICATOR, scope, {
          reporting_year: year,
          super_indicator_id: superIndicatorId,
          unit_id: unitId,
          name,
          language_code: language.code,
        });
        return { id: r.id, message: r.created ? MSG.added('indicator', r.id) : MSG.exists('indicator', r.id) };
      }
      const id = await requireIdByName(m, INDICATOR, scope, name, `under super indicator ${superIndicatorId} in ${year}`);
      const current = await requireItem(m, INDICATOR, id, year);
      const targetSuper = newSuperIndicatorId ?? superIndicatorId;
      if (targetSuper !== superIndicatorId) await requireItem(m, SUPER_INDICATOR, targetSuper, year);
      if (newUnitId !== undefined) {
        await requireItem(m, UNIT, newUnitId, year);
        await assertUnitTakesValuesOf(m, id, newUnitId);
      }
      await assertNameFree(
        m,
        INDICATOR,
        { super_indicator_id: targetSuper },
        newName ?? current.name,
        `under super indicator ${targetSuper}`,
        id,
      );
      await updateItem(
        m,
        INDICATOR,
        id,
        {
          ...(newName !== undefined ? { name: newName } : {}),
          super_indicator_id: targetSuper,
          ...(newUnitId !== undefined ? { unit_id: newUnitId } : {}),
        },
        newName !== undefined ? language : undefined,
      );
      return { id, message: MSG.changed('indicator') };
    });
  }

  /** Refused while framework or project rows use the indicator. */
  async remove(caller: Caller, indicatorId: number, reportingYear: number): Promise<Outcome> {
    requireOperator(caller);
    const id = v.id('indicator_id', indicatorId);
    const year = v.reportingYear(reportingYear);
    return this.ds.transaction(async (m) => {
      await requireItem(m, INDICATOR, id, year);
      const users = await rowUsersOf(m, 'indicator_id', id);
      if (users.length) throw new FailedPreconditionError(MSG.inUse('indicator', id, users, 'remove those rows first'));
      await deleteItem(m, INDICATOR, id);
      return { id, message: MSG.removed('indicator') };
    });
  }
}
