import type { DataSource, EntityManager } from 'typeorm';
import type { ConvertedAmount, FxRate } from '@green-impact/proto/greenimpact/taxonomy/v1/taxonomy';
import type { Caller } from '@green-impact/shared/caller';
import { FailedPreconditionError, InvalidArgumentError, NotFoundError } from '@green-impact/shared/errors';
import { requireOperator } from '@green-impact/shared/caller';
import * as v from '../validation.js';
import { requireCurrency } from './currencies.js';
import { FxRateEntity } from './entities.js';
import { fxListing, lookupRate, type StoredRate } from './fx-math.js';
import { CURRENCY_MSG } from './messages.js';

export interface AddFxRateInput {
  numerator: string;
  denominator: string;
  rate: number;
  reportingYear: number;
}

export interface Conversion {
  amount: number;
  fromCurrencyCode: string;
  toCurrencyCode: string;
}

export const MAX_CONVERSIONS = 10_000;

/** FX rates per year. One stored row per currency pair and year; see fx-math.ts for what is derived. */
export class FxRateStore {
  constructor(private readonly ds: DataSource) {}

  async list(reportingYear: number): Promise<FxRate[]> {
    const year = v.reportingYear(reportingYear);
    return fxListing(year, await this.stored(this.ds.manager, year));
  }

  /**
   * Adds the rate of the pair for the year, or replaces the stored one whichever direction it was
   * given in (the row keeps its id and takes the new direction).
   */
  async add(caller: Caller, input: AddFxRateInput): Promise<{ id: number; created: boolean }> {
    requireOperator(caller);
    const numerator = v.currencyCode('currency_code_numerator', input.numerator);
    const denominator = v.currencyCode('currency_code_denominator', input.denominator);
    const rate = v.positiveRate('currency_code_quota', input.rate);
    const year = v.reportingYear(input.reportingYear);
    if (numerator === denominator) throw new InvalidArgumentError(CURRENCY_MSG.sameCurrency);
    return this.ds.transaction(async (m) => {
      await requireCurrency(m, numerator);
      await requireCurrency(m, denominator);
      const rows: { id: number; inserted: boolean }[] = await m.query(
        `INSERT INTO taxonomy.fx_rates (reporting_year, numerator_code, denominator_code, rate) VALUES ($1, $2, $3, $4)
         ON CONFLICT (reporting_year, LEAST(numerator_code, denominator_code), GREATEST(numerator_code, denominator_code))
         DO UPDATE SET numerator_code = EXCLUDED.numerator_code, denominator_code = EXCLUDED.denominator_code,
                       rate = EXCLUDED.rate, updated_at = now()
         RETURNING id, (xmax = 0) AS inserted`,
        [year, numerator, denominator, rate],
      );
      return { id: rows[0]!.id, created: rows[0]!.inserted };
    });
  }

  /** Removes the stored rate of the pair, given in either order. */
  async remove(caller: Caller, code1: string, code2: string, reportingYear: number): Promise<number> {
    requireOperator(caller);
    const a = v.currencyCode('currency_code_1', code1);
    const b = v.currencyCode('currency_code_2', code2);
    const year = v.reportingYear(reportingYear);
    const [rows]: [{ id: number }[], number] = await this.ds.query(
      `DELETE FROM taxonomy.fx_rates WHERE reporting_year = $1
         AND ((numerator_code = $2 AND denominator_code = $3) OR (numerator_code = $3 AND denominator_code = $2))
       RETURNING id`,
      [year, a, b],
    );
    if (!rows[0]) throw new NotFoundError(CURRENCY_MSG.noFxRate(a, b, year));
    return rows[0].id;
  }

  /** One rate, derived like the listing; NOT_FOUND when none is known. */
  async get(reportingYear: number, numeratorCode: string, denominatorCode: string): Promise<FxRate> {
    const year = v.reportingYear(reportingYear);
    const numerator = v.currencyCode('numerator_currency_code', numeratorCode);
    const denominator = v.currencyCode('denominator_currency_code', denominatorCode);
    const m = this.ds.manager;
    await requireCurrency(m, numerator);
    await requireCurrency(m, denominator);
    const rate = lookupRate(year, await this.stored(m, year), numerator, denominator);
    if (!rate) throw new NotFoundError(CURRENCY_MSG.noFxRate(numerator, denominator, year));
    return rate;
  }

  /**
   * Converts each amount with the year's rate to/from. All or nothing: a missing rate is
   * FAILED_PRECONDITION naming the pair and the year.
   */
  async convert(reportingYear: number, conversions: readonly Conversion[]): Promise<ConvertedAmount[]> {
    const year = v.reportingYear(reportingYear);
    if (conversions.length > MAX_CONVERSIONS) throw new InvalidArgumentError(CURRENCY_MSG.tooManyConversions(MAX_CONVERSIONS));
    const parsed = conversions.map((c) => ({
      amount: v.finiteAmount('amount', c.amount),
      from: v.currencyCode('from_currency_code', c.fromCurrencyCode),
      to: v.currencyCode('to_currency_code', c.toCurrencyCode),
    }));
    const m = this.ds.manager;
    for (const code of new Set(parsed.flatMap((c) => [c.from, c.to]))) await requireCurrency(m, code);
    const stored = parsed.length ? await this.stored(m, year) : [];
    return parsed.map((c) => {
      const rate = lookupRate(year, stored, c.to, c.from);
      if (!rate) throw new FailedPreconditionError(CURRENCY_MSG.noFxRate(c.from, c.to, year));
      return {
        amount: c.amount,
        fromCurrencyCode: c.from,
        toCurrencyCode: c.to,
        fxRate: rate.fxRate,
        convertedAmount: c.amount * rate.fxRate,
      };
    });
  }

  private async stored(m: EntityManager, year: number): Promise<StoredRate[]> {
    return m.getRepository(FxRateEntity).find({ where: { reportingYear: year }, order: { id: 'ASC' } });
  }
}
