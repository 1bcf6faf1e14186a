import type { DataSource } from 'typeorm';
import type { Visibility } from '@green-impact/proto/greenimpact/common/v1/common';
import type { Caller } from '@green-impact/shared/caller';
import { FailedPreconditionError } from '@green-impact/shared/errors';
import { requireCurrency } from '../currencies/currencies.js';
import { pgErrorCode } from '../taxonomy/items.js';
import type { Outcome } from '../taxonomy/year-named.js';
import * as v from '../validation.js';
import * as bond from './bond-report.js';
import { keepCurrencyHeldByOthers } from './holders.js';
import * as input from './inputs.js';
import { OWNED_MSG } from './messages.js';
import { accountOf, checkPublishing, FRAMEWORK, requireOwned } from './owned.js';

export interface AddFrameworkInput {
  identifier: string;
  name: string;
  currencyCode: string;
  visibility?: Visibility | undefined;
  /** Issue 37; each unchanged on update when absent. */
  issuerLei?: string | undefined;
  externalReviewer?: string | undefined;
  approvingAuthority?: string | undefined;
}

export interface FrameworkYearSpecificsInput {
  identifier: string;
  valueOutstanding: number;
  allocatedAmount: number;
  valueOutstandingFramework: boolean;
  reportingYear: number;
  /** Issue 37; each unchanged when absent. */
  reportingPeriodStart?: string | undefined;
  reportingPeriodEnd?: string | undefined;
  unallocatedProceedsPlacement?: string | undefined;
}

/**
 * Frameworks of an account (spec §4.6): add or update, year specifics, removal. Rows are changed through
 * OwnedRowStore; reads are FrameworkReader's. Any account may have frameworks; only the owner changes them.
 */
export class FrameworkStore {
  constructor(
    private readonly ds: DataSource,
    /** MAX_PUBLIC_ITEMS_PER_ACCOUNT */
    private readonly maxPublic: number,
  ) {}

  /**
   * Adds the caller's framework of that identifier, or updates its name, currency and (when given)
   * visibility. Stored amounts are not converted when the currency changes. The currency stays while
   * other accounts' assets hold the framework (holders.ts).
   */
  async add(caller: Caller, req: AddFrameworkInput): Promise<Outcome> {
    const account = accountOf(caller);
    const identifier = input.identifier('framework_identifier', req.identifier);
    const name = v.name('framework_name', req.name);
    const currency = v.currencyCode('framework_currency_code', req.currencyCode);
    const visibility = input.visibility('framework_visibility', req.visibility);
    const issuerLei = bond.lei('issuer_lei', req.issuerLei);
    const reviewer = bond.optionalLine('external_reviewer', req.externalReviewer);
    const authority = bond.optionalLine('approving_authority', req.approvingAuthority);
    return this.ds.transaction(async (m) => {
      await requireCurrency(m, currency);
      await checkPublishing(m, FRAMEWORK, account, identifier, visibility, this.maxPublic);
      await keepCurrencyHeldByOthers(m, account, identifier, currency);
      const rows: { id: number; inserted: boolean }[] = await m.query(
        `INSERT INTO taxonomy.frameworks (account_id, identifier, name, currency_code, visibility, issuer_lei, external_reviewer, approving_authority)
         VALUES ($1, $2, $3, $4, COALESCE($5::varchar, 'private'), $6, $7, $8)
         ON CONFLICT (account_id, identifier) DO UPDATE
           SET name = EXCLUDED.name, currency_code = EXCLUDED.currency_code,
               visibility = COALESCE($5::varchar, taxonomy.frameworks.visibility),
               issuer_lei = COALESCE($6::varchar, taxonomy.frameworks.issuer_lei),
               external_reviewer = COALESCE($7::varchar, taxonomy.frameworks.external_reviewer),
               approving_authority = COALESCE($8::varchar, taxonomy.frameworks.approving_authority), updated_at = now()
         RETURNING id, (xmax = 0) AS inserted`,
        [account, identifier, name, currency, visibility ?? null, issuerLei ?? null, reviewer ?? null, authority ?? null],
      );
      const { id, inserted } = rows[0]!;
      return { id, message: inserted ? OWNED_MSG.added('framework', id) : OWNED_MSG.updated('framework') };
    });
  }

  /** Adds or replaces V, L and the use-of-proceeds flag of a year. */
  async addYearSpecifics(caller: Caller, req: FrameworkYearSpecificsInput): Promise<Outcome> {
    const account = accountOf(caller);
    const identifier = input.identifier('framework_identifier', req.identifier);
    const valueOutstanding = input.amount('value_outstanding', req.valueOutstanding);
    const allocatedAmount = input.amount('allocated_amount', req.allocatedAmount);
    const year = v.reportingYear(req.reportingYear);
    const period = bond.reportingPeriod(req.reportingPeriodStart, req.reportingPeriodEnd);
    const placement = bond.optionalText('unallocated_proceeds_placement', req.unallocatedProceedsPlacement);
    return this.ds.transaction(async (m) => {
      const framework = await requireOwned(m, FRAMEWORK, account, identifier);
      const rows: { inserted: boolean }[] = await m.query(
        `INSERT INTO taxonomy.framework_year_specifics
           (framework_id, reporting_year, value_outstanding, allocated_amount, value_outstanding_framework,
            reporting_period_start, reporting_period_end, unallocated_proceeds_placement)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
         ON CONFLICT (framework_id, reporting_year) DO UPDATE
           SET value_outstanding = EXCLUDED.value_outstanding, allocated_amount = EXCLUDED.allocated_amount,
               value_outstanding_framework = EXCLUDED.value_outstanding_framework,
               reporting_period_start = COALESCE($6::date, taxonomy.framework_year_specifics.reporting_period_start),
               reporting_period_end = COALESCE($7::date, taxonomy.framework_year_specifics.reporting_period_end),
               unallocated_proceeds_placement = COALESCE($8::varchar, taxonomy.framework_year_specifics.unallocated_proceeds_placement),
               updated_at = now()
         RETURNING (xmax = 0) AS inserted`,
        [framework.id, year, valueOutstanding, allocatedAmount, req.valueOutstandingFramework === true, period?.start ?? null, period?.end ?? null, placement ?? null],
      );
      const message = rows[0]!.inserted ? OWNED_MSG.yearSpecificsAdded('framework', year) : OWNED_MSG.yearSpecificsUpdated('framework', year);
      return { id: framework.id, message };
    });
  }

  /**
   * Removes the framework with its year specifics and rows of every year. Refused while projects refer
   * to it: the caller's are named, other accounts' (referring to it while it was public) only counted.
   */
  async remove(caller: Caller, frameworkIdentifier: string): Promise<Outcome> {
    const account = accountOf(caller);
    const identifier = input.identifier('framework_identifier', frameworkIdentifier);
    return this.ds.transaction(async (m) => {
      const framework = await requireOwned(m, FRAMEWORK, account, identifier);
      const projects: { identifier: string; own: boolean }[] = await m.query(
        `SELECT identifier, (account_id = $2) AS own FROM taxonomy.projects WHERE framework_id = $1 ORDER BY identifier, id`,
        [framework.id, account],
      );
      if (projects.length) {
        const own = projects.filter((p) => p.own).map((p) => p.identifier);
        throw new FailedPreconditionError(OWNED_MSG.frameworkInUse(identifier, own, projects.length - own.length));
      }
      try {
        await m.query(`DELETE FROM taxonomy.frameworks WHERE id = $1`, [framework.id]);
      } catch (err) {
        if (pgErrorCode(err) === '23503') throw new FailedPreconditionError(OWNED_MSG.frameworkStillInUse(identifier));
        throw err;
      }
      return { id: framework.id, message: OWNED_MSG.removed('framework') };
    });
  }
}
