import type { DataSource, EntityManager } from 'typeorm';
import type { Caller } from '@green-impact/shared/caller';
import { FailedPreconditionError, NotFoundError } from '@green-impact/shared/errors';
import { requireOperator } from '@green-impact/shared/caller';
import { currencyUsersIn } from '../frameworks/usage.js';
import { joinAnd } from '../messages.js';
import { pgErrorCode } from '../taxonomy/items.js';
import * as v from '../validation.js';
import { CurrencyEntity, type CurrencyRow } from './entities.js';
import { CURRENCY_MSG } from './messages.js';

/**
 * What still uses a currency, as phrases for the refusal ("FX rates of 2023 and 2024", "2 frameworks").
 * Assets and positions live in the portfolio service and are not checked.
 */
type CurrencyUsageCheck = (m: EntityManager, code: string) => Promise<string | undefined>;

const usageChecks: CurrencyUsageCheck[] = [
  async (m, code) => {
    const rows: { reporting_year: number }[] = await m.query(
      `SELECT DISTINCT reporting_year FROM taxonomy.fx_rates WHERE numerator_code = $1 OR denominator_code = $1 ORDER BY 1`,
      [code],
    );
    return rows.length ? `FX rates of ${joinAnd(rows.map((r) => String(r.reporting_year)))}` : undefined;
  },
  currencyUsersIn('frameworks'),
  currencyUsersIn('projects'),
];

/** Registered currencies (ISO 4217 seeded; operators add and remove). Codes are stored upper case. */
export class CurrencyStore {
  constructor(private readonly ds: DataSource) {}

  async list(): Promise<CurrencyRow[]> {
    return this.ds.getRepository(CurrencyEntity).find({ order: { code: 'ASC' } });
  }

  /** Adding a registered code is not an error: it answers the existing id (like the taxonomy adds). */
  async add(caller: Caller, currencyCode: string): Promise<{ id: number; created: boolean }> {
    requireOperator(caller);
    const code = v.currencyCode('currency_code', currencyCode);
    return this.ds.transaction(async (m) => {
      const inserted: { id: number }[] = await m.query(
        `INSERT INTO taxonomy.currencies (code) VALUES ($1) ON CONFLICT (code) DO NOTHING RETURNING id`,
        [code],
      );
      if (inserted[0]) return { id: inserted[0].id, created: true };
      return { id: (await requireCurrency(m, code)).id, created: false };
    });
  }

  /** Refused while anything in this service uses the currency. */
  async remove(caller: Caller, currencyCode: string): Promise<number> {
    requireOperator(caller);
    const code = v.currencyCode('currency_code', currencyCode);
    return this.ds.transaction(async (m) => {
      const currency = await requireCurrency(m, code, true);
      const users: string[] = [];
      for (const check of usageChecks) {
        const used = await check(m, code);
        if (used) users.push(used);
      }
      if (users.length) throw new FailedPreconditionError(CURRENCY_MSG.currencyInUse(code, users));
      try {
        await m.query(`DELETE FROM taxonomy.currencies WHERE id = $1`, [currency.id]);
      } catch (err) {
        if (pgErrorCode(err) === '23503') throw new FailedPreconditionError(CURRENCY_MSG.currencyStillInUse(code));
        throw err;
      }
      return currency.id;
    });
  }
}

/** The registered currency of a (normalized) code, or NOT_FOUND "No such currency XYZ.". */
export async function requireCurrency(m: EntityManager, code: string, lock = false): Promise<CurrencyRow> {
  const row = await m.getRepository(CurrencyEntity).findOne({
    where: { code },
    ...(lock ? { lock: { mode: 'pessimistic_write' as const } } : {}),
  });
  if (!row) throw new NotFoundError(CURRENCY_MSG.noSuchCurrency(code));
  return row;
}
