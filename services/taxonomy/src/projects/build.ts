import type { DataSource, EntityManager } from 'typeorm';
import type { Caller } from '@green-impact/shared/caller';
import { FailedPreconditionError } from '@green-impact/shared/errors';
import { FxRateEntity } from '../currencies/entities.js';
import { lookupRate } from '../currencies/fx-math.js';
import type { OwnedRecord } from '../frameworks/entities.js';
import * as input from '../frameworks/inputs.js';
import { OWNED_MSG } from '../frameworks/messages.js';
import { accountOf, FRAMEWORK, requireOwned } from '../frameworks/owned.js';
import * as v from '../validation.js';
import { consolidate, type ProjectFigures } from './consolidate.js';
import { financingShare } from './financing.js';

export interface BuildOutcome {
  id: number;
  message: string;
  projectCount: number;
  rowCount: number;
  /** Of projectCount, the projects counted pro rata (their financing share known for the year). */
  proRataProjectCount: number;
}

export interface ProjectRef {
  id: number;
  identifier: string;
  currency_code: string;
  total_project_cost: number | null;
  signed_amount: number | null;
}

interface StoredProjectRow {
  project_id: number;
  sub_category_id: number;
  indicator_id: number;
  volume: number;
  value: number;
}

/**
 * buildFrameworkFromProjects: replaces the framework's rows of a year by the consolidation of its
 * owner's projects referring to it (see consolidate.ts), in one transaction. Only the owner builds, and
 * only from its own projects: another account's project referring to a public framework never changes
 * its figures. Volumes in another currency are converted with the year's FX rate (framework / project).
 * A project whose financing share is known for the year (signed amount ÷ total project cost) counts that
 * share of its indicator values, as ICMA asks issuers to report; one whose share is not known counts its
 * full values, the spec's plain sum. Volumes are the issuer's own allocations and are never scaled.
 */
export class FrameworkBuilder {
  constructor(private readonly ds: DataSource) {}

  async build(caller: Caller, frameworkIdentifier: string, reportingYear: number): Promise<BuildOutcome> {
    const account = accountOf(caller);
    const identifier = input.identifier('framework_identifier', frameworkIdentifier);
    const year = v.reportingYear(reportingYear);
    return this.ds.transaction(async (m) => {
      const framework = await requireOwned(m, FRAMEWORK, account, identifier);
      const specifics: unknown[] = await m.query(
        `SELECT 1 FROM taxonomy.framework_year_specifics WHERE framework_id = $1 AND reporting_year = $2`,
        [framework.id, year],
      );
      if (specifics.length === 0) throw new FailedPreconditionError(OWNED_MSG.buildNeedsYearSpecifics(identifier, year));
      // FOR SHARE: a concurrent change of these projects' rows (which locks the project) waits for the build.
      const projects: ProjectRef[] = await m.query(
        `SELECT p.id, p.identifier, p.currency_code, y.total_project_cost, y.signed_amount
         FROM taxonomy.projects p
         LEFT JOIN taxonomy.project_year_specifics y ON y.project_id = p.id AND y.reporting_year = $3
         WHERE p.framework_id = $1 AND p.account_id = $2 ORDER BY p.id FOR SHARE OF p`,
        [framework.id, account, year],
      );
      if (projects.length === 0) throw new FailedPreconditionError(OWNED_MSG.buildNeedsProjects(identifier));
      const stored: StoredProjectRow[] = await m.query(
        `SELECT project_id, sub_category_id, indicator_id, sub_category_volume AS volume, indicator_value AS value
         FROM taxonomy.project_rows WHERE project_id = ANY($1::int[]) AND reporting_year = $2`,
        [projects.map((p) => p.id), year],
      );
      if (stored.length === 0) throw new FailedPreconditionError(OWNED_MSG.buildNeedsRows(identifier, year));

      const contributing = projects.filter((p) => stored.some((r) => r.project_id === p.id));
      const factors = await fxFactors(m, framework, contributing, year);
      // ICMA: the issuer's pro-rata share of a co-financed project's impact; the full values where unknown.
      const shares = new Map(contributing.map((p) => [p.id, financingShare(p.signed_amount, p.total_project_cost)]));
      const figures: ProjectFigures[] = stored.map((r) => ({
        projectId: r.project_id,
        subCategoryId: r.sub_category_id,
        indicatorId: r.indicator_id,
        volume: r.volume * factors.get(r.project_id)!,
        value: r.value * (shares.get(r.project_id) ?? 1),
      }));
      const rows = consolidate(figures);

      await m.query(`DELETE FROM taxonomy.framework_rows WHERE framework_id = $1 AND reporting_year = $2`, [framework.id, year]);
      await m.query(
        `INSERT INTO taxonomy.framework_rows (framework_id, reporting_year, sub_category_id, indicator_id, sub_category_volume, indicator_value)
         SELECT $1, $2, t.sub_category_id, t.indicator_id, t.volume, t.value
         FROM unnest($3::int[], $4::int[], $5::float8[], $6::float8[]) AS t(sub_category_id, indicator_id, volume, value)`,
        [
          framework.id,
          year,
          rows.map((r) => r.subCategoryId),
          rows.map((r) => r.indicatorId),
          rows.map((r) => r.volume),
          rows.map((r) => r.value),
        ],
      );
      return {
        id: framework.id,
        message: OWNED_MSG.built(contributing.length, rows.length),
        projectCount: contributing.length,
        rowCount: rows.length,
        proRataProjectCount: [...shares.values()].filter((share) => share !== undefined).length,
      };
    });
  }
}

/**
 * Per project: the factor turning its amounts into the framework currency (1 for the same currency); a
 * missing rate is refused with `missing`'s text (the build's by default).
 */
export async function fxFactors(
  m: EntityManager,
  framework: OwnedRecord,
  projects: Pick<ProjectRef, 'id' | 'identifier' | 'currency_code'>[],
  year: number,
  missing: (from: string, to: string, year: number, project: string) => string = OWNED_MSG.buildNoFxRate,
): Promise<Map<number, number>> {
  const factors = new Map<number, number>();
  const foreign = projects.filter((p) => p.currency_code !== framework.currencyCode);
  const rates = foreign.length ? await m.getRepository(FxRateEntity).find({ where: { reportingYear: year } }) : [];
  for (const p of projects) {
    if (p.currency_code === framework.currencyCode) {
      factors.set(p.id, 1);
      continue;
    }
    // fx_rate = numerator / denominator: framework currency units per project currency unit.
    const rate = lookupRate(year, rates, framework.currencyCode, p.currency_code);
    if (!rate) throw new FailedPreconditionError(missing(p.currency_code, framework.currencyCode, year, p.identifier));
    factors.set(p.id, rate.fxRate);
  }
  return factors;
}
