import type { DataSource, EntityManager } from 'typeorm';
import { requireOperator, type Caller } from '@green-impact/shared/caller';
import { FailedPreconditionError } from '@green-impact/shared/errors';
import * as v from '../validation.js';
import { requireItem, UNIT } from './items.js';
import type { Outcome } from './year-named.js';

/**
 * Signed units (issue 37): only values in a unit marked signed may be negative (negative impacts). The
 * database holds the same rule (migration 1763856000005's trigger); these checks come first so a client gets
 * the service's text. Locks: a row write reads its indicator and unit FOR SHARE, an un-signing or a unit
 * change locks them FOR UPDATE, so neither slips past the other.
 */

/** Whether the unit of an indicator of the year is signed (indicator and unit locked); undefined when no such indicator. */
export async function indicatorUnitSigned(m: EntityManager, indicatorId: number, year: number): Promise<boolean | undefined> {
  const rows: { signed: boolean }[] = await m.query(
    `SELECT u.signed FROM taxonomy.indicators i JOIN taxonomy.units u ON u.id = i.unit_id
     WHERE i.id = $1 AND i.reporting_year = $2 FOR SHARE OF i, u`,
    [indicatorId, year],
  );
  return rows[0]?.signed;
}

/** How many framework and project rows hold a negative value or baseline of the indicators matched by `where` ($1). */
export async function negativeValuesOf(m: EntityManager, where: 'i.unit_id = $1' | 'i.id = $1', id: number): Promise<number> {
  const [row]: { n: string | number }[] = await m.query(
    `SELECT count(*) AS n FROM (
       SELECT indicator_id FROM taxonomy.framework_rows WHERE indicator_value < 0 OR baseline_value < 0
       UNION ALL
       SELECT indicator_id FROM taxonomy.project_rows WHERE indicator_value < 0 OR baseline_value < 0
     ) r JOIN taxonomy.indicators i ON i.id = r.indicator_id WHERE ${where}`,
    [id],
  );
  return Number(row?.n ?? 0);
}

/** Before an indicator moves to another unit: refused when that unit is unsigned and the indicator has negative values. */
export async function assertUnitTakesValuesOf(m: EntityManager, indicatorId: number, unitId: number): Promise<void> {
  const [unit]: { signed: boolean }[] = await m.query(`SELECT signed FROM taxonomy.units WHERE id = $1 FOR SHARE`, [unitId]);
  if (unit?.signed) return;
  const negatives = await negativeValuesOf(m, 'i.id = $1', indicatorId);
  if (negatives > 0) {
    throw new FailedPreconditionError(
      `Indicator ${indicatorId} has negative values in ${negatives === 1 ? '1 row' : `${negatives} rows`}; unit ${unitId} is not signed (setUnitSigned).`,
    );
  }
}

export class UnitSignStore {
  constructor(private readonly ds: DataSource) {}

  /** Marks a unit signed (its values may be negative) or not; un-signing is refused while negative values use it. Operators only. */
  async set(caller: Caller, unitId: number, reportingYear: number, signed: boolean): Promise<Outcome> {
    requireOperator(caller);
    const id = v.id('unit_id', unitId);
    const year = v.reportingYear(reportingYear);
    return this.ds.transaction(async (m) => {
      await requireItem(m, UNIT, id, year);
      await m.query(`SELECT 1 FROM taxonomy.units WHERE id = $1 FOR UPDATE`, [id]);
      if (!signed) {
        const negatives = await negativeValuesOf(m, 'i.unit_id = $1', id);
        if (negatives > 0) {
          throw new FailedPreconditionError(
            `Unit ${id} holds negative values in ${negatives === 1 ? '1 row' : `${negatives} rows`}; make them 0 or more before marking it unsigned.`,
          );
        }
      }
      await m.query(`UPDATE taxonomy.units SET signed = $2 WHERE id = $1`, [id, signed]);
      return { id, message: signed ? `Unit ${id} is signed: its values may be negative.` : `Unit ${id} is unsigned: its values are 0 or more.` };
    });
  }
}
