import type { DataSource } from 'typeorm';
import type { Caller } from '@green-impact/shared/caller';
import { NotFoundError } from '@green-impact/shared/errors';
import type { Outcome } from '../taxonomy/year-named.js';
import * as v from '../validation.js';
import * as input from './inputs.js';
import { OWNED_MSG } from './messages.js';
import { accountOf, requireOwned, type OwnedKind } from './owned.js';
import { removeRow, removeSubCategoryRows, removeYearSpecifics, upsertRow } from './rows.js';
import { INDICATOR, requireItem } from '../taxonomy/items.js';
import { indicatorUnitSigned } from '../taxonomy/unit-signs.js';
import { unitValue, valueMetadata, type ValueMetadataInput } from './value-metadata.js';

export interface AddRowInput extends ValueMetadataInput {
  identifier: string;
  subCategoryId: number;
  subCategoryVolume: number;
  indicatorId: number;
  indicatorValue: number;
  reportingYear: number;
}

/**
 * The operations frameworks and projects share: their (sub category, indicator) rows and the removal
 * of a year's specifics. Only the owner changes them. Answers carry the framework's / project's id.
 */
export class OwnedRowStore {
  private readonly identifierField: string;

  constructor(
    private readonly ds: DataSource,
    private readonly kind: OwnedKind,
  ) {
    this.identifierField = `${kind.label}_identifier`;
  }

  /** Adds or updates the row of (sub category, indicator) for the year. */
  async addRow(caller: Caller, req: AddRowInput): Promise<Outcome> {
    const account = accountOf(caller);
    const identifier = input.identifier(this.identifierField, req.identifier);
    const subCategoryId = v.id('sub_category_id', req.subCategoryId);
    const indicatorId = v.id('indicator_id', req.indicatorId);
    const volume = input.amount('sub_category_volume', req.subCategoryVolume);
    const value = unitValue('indicator_value', req.indicatorValue, true);
    const year = v.reportingYear(req.reportingYear);
    const metadata = valueMetadata(req);
    if (metadata.baselineValue !== undefined) unitValue('baseline_value', metadata.baselineValue, true);
    return this.ds.transaction(async (m) => {
      const owner = await requireOwned(m, this.kind, account, identifier);
      if (value < 0 || (metadata.baselineValue ?? 0) < 0) {
        // Negative impacts only in a signed unit (taxonomy/unit-signs.ts).
        const signed = await indicatorUnitSigned(m, indicatorId, year);
        if (signed === undefined) await requireItem(m, INDICATOR, indicatorId, year);
        if (!signed) {
          unitValue('indicator_value', value, false);
          unitValue('baseline_value', metadata.baselineValue ?? 0, false);
        }
      }
      const added = await upsertRow(m, this.kind, owner.id, { subCategoryId, indicatorId, volume, value, reportingYear: year, metadata });
      const message = added
        ? OWNED_MSG.rowAdded(this.kind.label, subCategoryId, indicatorId)
        : OWNED_MSG.rowUpdated(this.kind.label, subCategoryId, indicatorId);
      return { id: owner.id, message };
    });
  }

  async removeRow(caller: Caller, identifierIn: string, subCategoryIdIn: number, indicatorIdIn: number, reportingYear: number): Promise<Outcome> {
    const account = accountOf(caller);
    const identifier = input.identifier(this.identifierField, identifierIn);
    const indicatorId = v.id('indicator_id', indicatorIdIn);
    const subCategoryId = v.id('sub_category_id', subCategoryIdIn);
    const year = v.reportingYear(reportingYear);
    return this.ds.transaction(async (m) => {
      const owner = await requireOwned(m, this.kind, account, identifier);
      if (!(await removeRow(m, this.kind, owner.id, subCategoryId, indicatorId, year))) {
        throw new NotFoundError(OWNED_MSG.noRow(this.kind.label, identifier, subCategoryId, indicatorId, year));
      }
      return { id: owner.id, message: OWNED_MSG.rowRemoved(this.kind.label, subCategoryId, indicatorId) };
    });
  }

  /** Removes every row of the sub category for the year. */
  async removeSubCategory(caller: Caller, identifierIn: string, subCategoryIdIn: number, reportingYear: number): Promise<Outcome> {
    const account = accountOf(caller);
    const identifier = input.identifier(this.identifierField, identifierIn);
    const subCategoryId = v.id('sub_category_id', subCategoryIdIn);
    const year = v.reportingYear(reportingYear);
    return this.ds.transaction(async (m) => {
      const owner = await requireOwned(m, this.kind, account, identifier);
      const removed = await removeSubCategoryRows(m, this.kind, owner.id, subCategoryId, year);
      if (removed === 0) throw new NotFoundError(OWNED_MSG.noSubCategoryRows(this.kind.label, identifier, subCategoryId, year));
      return { id: owner.id, message: OWNED_MSG.subCategoryRemoved(this.kind.label, subCategoryId, removed) };
    });
  }

  /** Removes the year specifics of the year; the rows of the year stay. */
  async removeYearSpecifics(caller: Caller, identifierIn: string, reportingYear: number): Promise<Outcome> {
    const account = accountOf(caller);
    const identifier = input.identifier(this.identifierField, identifierIn);
    const year = v.reportingYear(reportingYear);
    return this.ds.transaction(async (m) => {
      const owner = await requireOwned(m, this.kind, account, identifier);
      if (!(await removeYearSpecifics(m, this.kind, owner.id, year))) {
        throw new NotFoundError(OWNED_MSG.noYearSpecifics(this.kind.label, identifier, year));
      }
      return { id: owner.id, message: OWNED_MSG.yearSpecificsRemoved(this.kind.label, year) };
    });
  }
}
