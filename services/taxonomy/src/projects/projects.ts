import type { DataSource } from 'typeorm';
import type { Visibility } from '@green-impact/proto/greenimpact/common/v1/common';
import type { Caller } from '@green-impact/shared/caller';
import { NotFoundError } from '@green-impact/shared/errors';
import { requireCurrency } from '../currencies/currencies.js';
import * as input from '../frameworks/inputs.js';
import { OWNED_MSG } from '../frameworks/messages.js';
import { accountOf, checkPublishing, FRAMEWORK, PROJECT, requireOwned, requireVisible } from '../frameworks/owned.js';
import { pgErrorCode } from '../taxonomy/items.js';
import type { Outcome } from '../taxonomy/year-named.js';
import * as v from '../validation.js';
import * as financing from './financing.js';

export interface AddProjectInput {
  identifier: string;
  name: string;
  currencyCode: string;
  frameworkIdentifier: string;
  visibility?: Visibility | undefined;
  /** Issue 37; each unchanged on update when absent. */
  countryCode?: string | undefined;
  lifetimeYears?: number | undefined;
  financingType?: string | undefined;
}

export interface ProjectYearSpecificsInput {
  identifier: string;
  allocatedAmount: number;
  reportingYear: number;
  /** Issue 37; each unchanged when absent. */
  totalProjectCost?: number | undefined;
  signedAmount?: number | undefined;
}

/**
 * Projects of an account (spec §4.7): add or update, year specifics, removal. A project refers to a
 * framework the caller sees (its own, else a public one), resolved to that framework when added or updated.
 */
export class ProjectStore {
  constructor(
    private readonly ds: DataSource,
    /** MAX_PUBLIC_ITEMS_PER_ACCOUNT */
    private readonly maxPublic: number,
  ) {}

  async add(caller: Caller, req: AddProjectInput): Promise<Outcome> {
    const account = accountOf(caller);
    const identifier = input.identifier('project_identifier', req.identifier);
    const name = v.name('project_name', req.name);
    const currency = v.currencyCode('project_currency_code', req.currencyCode);
    const frameworkIdentifier = input.identifier('framework_identifier', req.frameworkIdentifier);
    const visibility = input.visibility('project_visibility', req.visibility);
    const country = financing.countryCode('project_country_code', req.countryCode);
    const lifetime = financing.lifetimeYears('project_lifetime_years', req.lifetimeYears);
    const financingType = financing.financingType('project_financing_type', req.financingType);
    return this.ds.transaction(async (m) => {
      await requireCurrency(m, currency);
      const framework = await requireVisible(m, FRAMEWORK, account, frameworkIdentifier);
      await checkPublishing(m, PROJECT, account, identifier, visibility, this.maxPublic);
      const rows = await m.query<{ id: number; inserted: boolean }[]>(
        `INSERT INTO taxonomy.projects (account_id, identifier, name, currency_code, framework_id, visibility, country_code, lifetime_years, financing_type)
         VALUES ($1, $2, $3, $4, $5, COALESCE($6::varchar, 'private'), $7, $8, $9)
         ON CONFLICT (account_id, identifier) DO UPDATE
           SET name = EXCLUDED.name, currency_code = EXCLUDED.currency_code, framework_id = EXCLUDED.framework_id,
               visibility = COALESCE($6::varchar, taxonomy.projects.visibility),
               country_code = COALESCE($7::varchar, taxonomy.projects.country_code),
               lifetime_years = COALESCE($8::int, taxonomy.projects.lifetime_years),
               financing_type = COALESCE($9::varchar, taxonomy.projects.financing_type), updated_at = now()
         RETURNING id, (xmax = 0) AS inserted`,
        [account, identifier, name, currency, framework.id, visibility ?? null, country ?? null, lifetime ?? null, financingType ?? null],
      ).catch((err: unknown) => {
        // The framework was removed since it was resolved (projects_framework_id_fkey).
        const constraint = (err as { driverError?: { constraint?: unknown } }).driverError?.constraint;
        if (pgErrorCode(err) === '23503' && constraint === 'projects_framework_id_fkey') {
          throw new NotFoundError(OWNED_MSG.noSuch('framework', frameworkIdentifier));
        }
        throw err;
      });
      const { id, inserted } = rows[0]!;
      return { id, message: inserted ? OWNED_MSG.added('project', id) : OWNED_MSG.updated('project') };
    });
  }

  /**
   * Adds or replaces the project's allocated amount of a year (in the project currency); the total project
   * cost and signed amount, when given, replace the stored ones (absent: kept), and the signed amount never
   * exceeds the cost it is stored with.
   */
  async addYearSpecifics(caller: Caller, req: ProjectYearSpecificsInput): Promise<Outcome> {
    const account = accountOf(caller);
    const identifier = input.identifier('project_identifier', req.identifier);
    const allocatedAmount = input.amount('allocated_amount', req.allocatedAmount);
    const year = v.reportingYear(req.reportingYear);
    const cost = financing.totalProjectCost('total_project_cost', req.totalProjectCost);
    const signed = req.signedAmount === undefined ? undefined : input.amount('signed_amount', req.signedAmount);
    financing.signedWithinCost(signed, cost);
    return this.ds.transaction(async (m) => {
      const project = await requireOwned(m, PROJECT, account, identifier);
      if ((cost === undefined) !== (signed === undefined)) {
        // One of the pair given alone: check it against the other as stored (the row lock keeps it so).
        const [stored]: { total_project_cost: number | null; signed_amount: number | null }[] = await m.query(
          `SELECT total_project_cost, signed_amount FROM taxonomy.project_year_specifics WHERE project_id = $1 AND reporting_year = $2 FOR UPDATE`,
          [project.id, year],
        );
        financing.signedWithinCost(signed, stored?.total_project_cost);
        financing.costCoversSigned(cost, stored?.signed_amount);
      }
      const rows: { inserted: boolean }[] = await m.query(
        `INSERT INTO taxonomy.project_year_specifics (project_id, reporting_year, allocated_amount, total_project_cost, signed_amount)
         VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (project_id, reporting_year) DO UPDATE SET allocated_amount = EXCLUDED.allocated_amount,
           total_project_cost = COALESCE($4::float8, taxonomy.project_year_specifics.total_project_cost),
           signed_amount = COALESCE($5::float8, taxonomy.project_year_specifics.signed_amount), updated_at = now()
         RETURNING (xmax = 0) AS inserted`,
        [project.id, year, allocatedAmount, cost ?? null, signed ?? null],
      );
      const message = rows[0]!.inserted ? OWNED_MSG.yearSpecificsAdded('project', year) : OWNED_MSG.yearSpecificsUpdated('project', year);
      return { id: project.id, message };
    });
  }

  /** Removes the project with its year specifics and rows of every year. */
  async remove(caller: Caller, projectIdentifier: string): Promise<Outcome> {
    const account = accountOf(caller);
    const identifier = input.identifier('project_identifier', projectIdentifier);
    return this.ds.transaction(async (m) => {
      const project = await requireOwned(m, PROJECT, account, identifier);
      await m.query(`DELETE FROM taxonomy.projects WHERE id = $1`, [project.id]);
      return { id: project.id, message: OWNED_MSG.removed('project') };
    });
  }
}
