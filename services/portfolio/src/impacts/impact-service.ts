import type { DataSource } from 'typeorm';
import type { ImpactRecord } from '@green-impact/proto/greenimpact/portfolio/v1/portfolio';
import type { Caller } from '@green-impact/shared/caller';
import type { InvestorStore } from '../investors/investor-store.js';
import type { PortfolioStore } from '../portfolios/portfolio-store.js';
import type { PositionDetail } from '../positions/position-reads.js';
import { selectPositions } from '../positions/position-reads.js';
import type { PositionStore } from '../positions/position-store.js';
import * as v from '../validation.js';
import type { ImpactCalculator } from './impact-calculator.js';
import type { ImpactStore } from './impact-store.js';
import { indicatorTotals, subCategoryVolumeTotals, type IndicatorTotal, type SubCategoryVolumeTotal } from './totals.js';

export interface ImpactSummary {
  records: ImpactRecord[];
  totals: IndicatorTotal[];
  volumeTotals: SubCategoryVolumeTotal[];
  /** Positions without records for the year (none when missing ones were computed). */
  positionIdsWithoutImpacts: number[];
}

/** Computing, storing and reading the impacts of positions, portfolios and investors. */
export class ImpactService {
  constructor(
    private readonly ds: DataSource,
    private readonly positions: PositionStore,
    private readonly portfolios: PortfolioStore,
    private readonly investors: InvestorStore,
    private readonly calculator: ImpactCalculator,
    private readonly store: ImpactStore,
  ) {}

  /** Computes the position's impacts of the year and replaces its stored records of that year at once. */
  async compute(caller: Caller, positionId: number, reportingYear: number): Promise<ImpactRecord[]> {
    const year = v.reportingYear(reportingYear);
    const position = await this.positions.require(caller, positionId);
    await this.computeFor(caller, position, year);
    return this.store.records(this.ds.manager, caller.accountId, { positionIds: [position.id], reportingYear: year });
  }

  async ofPosition(caller: Caller, positionId: number, reportingYear: number | undefined, computeMissing: boolean): Promise<ImpactRecord[]> {
    const year = reportingYear === undefined ? undefined : v.reportingYear(reportingYear);
    const position = await this.positions.require(caller, positionId);
    if (year !== undefined && computeMissing && !position.impactYears.includes(year)) await this.computeFor(caller, position, year);
    return this.store.records(this.ds.manager, caller.accountId, { positionIds: [position.id], reportingYear: year });
  }

  async ofPortfolio(caller: Caller, portfolioIdentifier: string, reportingYear: number, computeMissing: boolean) {
    const year = v.reportingYear(reportingYear);
    const portfolio = await this.portfolios.require(this.ds.manager, caller, portfolioIdentifier);
    const positions = await selectPositions(this.ds.manager, caller.accountId, { ids: portfolio.positionIds });
    return { portfolio, summary: await this.summarize(caller, positions, year, computeMissing) };
  }

  async ofInvestor(caller: Caller, investorIdentifier: string, reportingYear: number, computeMissing: boolean) {
    const year = v.reportingYear(reportingYear);
    const investor = await this.investors.requireInvestor(this.ds.manager, caller, investorIdentifier);
    const positions = await selectPositions(this.ds.manager, caller.accountId, { investorIdentifier: investor.investorIdentifier });
    return { investor, summary: await this.summarize(caller, positions, year, computeMissing) };
  }

  /** Stored records of a position and year, computed first when there are none. */
  async ensure(caller: Caller, position: PositionDetail, year: number): Promise<ImpactRecord[]> {
    if (!position.impactYears.includes(year)) await this.computeFor(caller, position, year);
    return this.store.records(this.ds.manager, caller.accountId, { positionIds: [position.id], reportingYear: year });
  }

  private async summarize(caller: Caller, positions: PositionDetail[], year: number, computeMissing: boolean): Promise<ImpactSummary> {
    const missing = positions.filter((p) => !p.impactYears.includes(year));
    if (computeMissing) {
      // One after the other: each computation asks the taxonomy service for the same few figures.
      for (const p of missing) await this.computeFor(caller, p, year);
    }
    const records = await this.store.records(this.ds.manager, caller.accountId, { positionIds: positions.map((p) => p.id), reportingYear: year });
    return {
      records,
      totals: indicatorTotals(records),
      volumeTotals: subCategoryVolumeTotals(records),
      positionIdsWithoutImpacts: computeMissing ? [] : missing.map((p) => p.id),
    };
  }

  /** Prepares outside any transaction (taxonomy calls), then replaces the year's records under a row lock. */
  private async computeFor(caller: Caller, position: PositionDetail, year: number): Promise<void> {
    const prepared = await this.calculator.prepare(caller, position, position, year);
    await this.ds.transaction(async (m) => {
      await this.positions.require(caller, position.id, m, true);
      await this.store.replace(m, position.id, prepared);
    });
  }
}
