import type { DataSource, EntityManager } from 'typeorm';
import type { ImpactRecord, ImpactRecordColumns } from '@green-impact/proto/greenimpact/portfolio/v1/portfolio';
import type { Caller } from '@green-impact/shared/caller';
import type { InvestorStore } from '../investors/investor-store.js';
import type { PortfolioStore } from '../portfolios/portfolio-store.js';
import type { PositionDetail } from '../positions/position-reads.js';
import { selectPositions } from '../positions/position-reads.js';
import type { PositionStore } from '../positions/position-store.js';
import * as v from '../validation.js';
import type { ImpactCalculator } from './impact-calculator.js';
import type { ImpactStore, PositionImpacts } from './impact-store.js';
import { recordAt, recordsOf } from '@green-impact/shared/impact-record-columns';
import { countRecords, decodeRecordToken, keepRecords, newRecordWalk, recordLimit, recordPage, recordPageSize, recordToken, type RecordScope } from './impact-record-pages.js';
import { ImpactTotalsReader, type ImpactScope } from './impact-totals.js';
import type { IndicatorTotal, SubCategoryVolumeTotal } from './totals.js';

export interface ImpactSummary {
  /** Empty when the records were omitted. */
  records: ImpactRecord[];
  totals: IndicatorTotal[];
  volumeTotals: SubCategoryVolumeTotal[];
  /** Positions without records for the year (none when missing ones were computed). */
  positionIdsWithoutImpacts: number[];
  /** Positions whose records of the year are stale (a recompute job is on its way). */
  stalePositions: number;
}

/** What StreamImpactRecords asks for (the proto's request, checked by {@link ImpactService.recordPages}). */
export interface RecordPagesRequest {
  investorIdentifier: string;
  portfolioIdentifier: string;
  reportingYear: number;
  pageSize: number;
  pageToken: string;
  limit: number;
  /** The records in `columns` (ImpactRecordColumns) rather than whole in `impacts`. */
  columns: boolean;
}

export interface RecordPagesPage {
  impacts: ImpactRecord[];
  columns?: ImpactRecordColumns | undefined;
  nextPageToken: string;
  totalCount?: number | undefined;
}

export interface SummaryOptions {
  computeMissing: boolean;
  omitRecords?: boolean | undefined;
}

/**
 * Positions per transaction of a recompute: 1 000 positions of a 24-row framework are 24 000 impact rows
 * written by three statements, and a batch holds its positions locked only that long.
 */
export const RECOMPUTE_BATCH = 1_000;
/** Batches written at once, each in its own transaction (the pool has 10 connections by default). */
const RECOMPUTE_BATCHES_IN_FLIGHT = 3;

/** Computing, storing and reading the impacts of positions, portfolios and investors. */
export class ImpactService {
  private readonly totals = new ImpactTotalsReader();

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
    await this.recompute(caller, [position], year);
    return this.store.records(this.ds.manager, caller.accountId, { positionIds: [position.id], reportingYear: year });
  }

  async ofPosition(caller: Caller, positionId: number, reportingYear: number | undefined, computeMissing: boolean): Promise<ImpactRecord[]> {
    const year = reportingYear === undefined ? undefined : v.reportingYear(reportingYear);
    const position = await this.positions.require(caller, positionId);
    if (year !== undefined && computeMissing && !position.impactYears.includes(year)) await this.recompute(caller, [position], year);
    return this.store.records(this.ds.manager, caller.accountId, { positionIds: [position.id], reportingYear: year });
  }

  async ofPortfolio(caller: Caller, portfolioIdentifier: string, reportingYear: number, options: SummaryOptions) {
    const year = v.reportingYear(reportingYear);
    const portfolio = await this.portfolios.require(this.ds.manager, caller, portfolioIdentifier);
    return { portfolio, summary: await this.summarize(caller, { positionIds: portfolio.positionIds }, year, options) };
  }

  async ofInvestor(caller: Caller, investorIdentifier: string, reportingYear: number, options: SummaryOptions) {
    const year = v.reportingYear(reportingYear);
    const investor = await this.investors.requireInvestor(this.ds.manager, caller, investorIdentifier);
    return { investor, summary: await this.summarize(caller, { investorId: investor.id }, year, options) };
  }

  /**
   * The stored records of an investor's or a portfolio's positions for a year, page by page (one keyset
   * query each, impact-record-pages.ts): the next page is read while the last is sent on, and none after
   * it until the stream's consumer took that one, so a slow consumer holds two pages. Every argument is
   * checked before the first page; with `limit` the first page also says how many records there are (a
   * connection's totalCount).
   */
  async *recordPages(caller: Caller, req: RecordPagesRequest): AsyncGenerator<RecordPagesPage> {
    const year = v.reportingYear(req.reportingYear);
    const size = recordPageSize(req.pageSize);
    const limit = recordLimit(req.limit);
    const after = decodeRecordToken(req.pageToken);
    const m = this.ds.manager;
    const scope: RecordScope = req.portfolioIdentifier
      ? { portfolioId: (await this.portfolios.requireRef(m, caller, req.portfolioIdentifier)).id }
      : { investorId: (await this.investors.requireInvestor(m, caller, req.investorIdentifier)).id };
    let totalCount = limit > 0 ? await countRecords(m, caller.accountId, scope, year) : undefined;
    let sent = 0;
    let offset = after?.offset ?? 0;
    const walk = newRecordWalk();
    // One row more than the page: whether another page follows, without a count.
    const wantAt = (sentSoFar: number) => (limit > 0 ? Math.min(size, limit - sentSoFar) : size);
    let reading = recordPage(m, caller.accountId, scope, year, after?.id, wantAt(0) + 1, walk);
    for (;;) {
      const want = wantAt(sent);
      const columns = await reading;
      const more = columns.id.length > want;
      keepRecords(columns, want);
      const count = columns.id.length;
      const last = count > 0 ? recordAt(columns, count - 1) : undefined;
      offset += count;
      sent += count;
      // The next page is read while this one is encoded and sent (where it starts is known now), so the
      // database's work and this process's overlap; none after it until the consumer took this one. A
      // stream stopped meanwhile leaves that read to finish unread.
      const done = !more || !last || (limit > 0 && sent >= limit);
      if (!done) {
        reading = recordPage(m, caller.accountId, scope, year, { positionId: last.positionId, subCategoryId: last.subCategoryId, indicatorId: last.indicatorId }, wantAt(sent) + 1, walk);
        reading.catch(() => undefined); // awaited by the next turn, or by nobody once the stream stopped
      }
      yield {
        ...(req.columns ? { impacts: [], columns } : { impacts: recordsOf(columns) }),
        nextPageToken: more && last ? recordToken(offset, last) : '',
        ...(totalCount === undefined ? {} : { totalCount }),
      };
      totalCount = undefined;
      if (done) return;
    }
  }

  /** Stored records of a position and year, computed first when there are none. */
  async ensure(caller: Caller, position: PositionDetail, year: number): Promise<ImpactRecord[]> {
    if (!position.impactYears.includes(year)) await this.recompute(caller, [position], year);
    return this.store.records(this.ds.manager, caller.accountId, { positionIds: [position.id], reportingYear: year });
  }

  /**
   * Recomputes the year's records of the positions, set-based: the taxonomy service is asked once per
   * framework (and once for the FX rates), then the records are written RECOMPUTE_BATCH positions per
   * transaction. All inputs are gathered before anything is written, so a missing rate or a removed
   * framework writes nothing. A position removed meanwhile is skipped. Repeating it changes nothing but
   * computed_at. Answers the number of positions written; onBatch hears the running count.
   */
  async recompute(caller: Caller, positions: readonly PositionDetail[], year: number, onBatch?: (done: number) => Promise<void> | void): Promise<number> {
    const readAt = await this.databaseNow();
    const prepared = await this.prepare(caller, positions, year);
    const batches: PositionImpacts[][] = [];
    for (let start = 0; start < prepared.length; start += RECOMPUTE_BATCH) batches.push(prepared.slice(start, start + RECOMPUTE_BATCH));
    let written = 0;
    let done = 0;
    let next = 0;
    // A few batches at once: PostgreSQL writes each on its own connection (and core) meanwhile.
    const worker = async () => {
      while (next < batches.length) {
        const batch = batches[next++]!;
        written += await this.ds.transaction((m) => this.write(m, caller.accountId, batch, readAt));
        done += batch.length;
        await onBatch?.(done);
      }
    };
    await Promise.all(Array.from({ length: Math.min(RECOMPUTE_BATCHES_IN_FLIGHT, batches.length) }, worker));
    return written;
  }

  /** The database's clock: a recompute reads its inputs after this time (see ImpactStore.replaceMany). */
  async databaseNow(): Promise<Date> {
    const [row] = (await this.ds.query(`SELECT clock_timestamp() AS now`)) as { now: Date }[];
    return row!.now;
  }

  /** The records of the positions for the year, computed from the taxonomy's current figures; writes nothing. */
  async prepare(caller: Caller, positions: readonly PositionDetail[], year: number): Promise<PositionImpacts[]> {
    const prepared = await this.calculator.prepareMany(caller, positions.map((p) => ({ position: p, asset: p })), year);
    return positions.map((p, i) => ({ positionId: p.id, prepared: prepared[i]! }));
  }

  /**
   * Writes prepared records in m's transaction: locks the positions (in id order), skips those removed
   * meanwhile, replaces their records. Positions of one year at most once. Answers the number written.
   */
  async write(m: EntityManager, accountId: string, batch: readonly PositionImpacts[], inputsReadAt: Date): Promise<number> {
    const present = await this.store.lockPositions(m, accountId, batch.map((b) => b.positionId));
    const kept = batch.filter((b) => present.has(b.positionId));
    await this.store.replaceMany(m, kept, inputsReadAt);
    return kept.length;
  }

  private async summarize(caller: Caller, scope: ImpactScope, year: number, options: SummaryOptions): Promise<ImpactSummary> {
    const m = this.ds.manager;
    let missing = await this.totals.positionsWithout(m, caller.accountId, scope, year);
    if (options.computeMissing && missing.length > 0) {
      await this.recompute(caller, await selectPositions(m, caller.accountId, { ids: missing }), year);
      missing = [];
    }
    const [{ totals, volumeTotals, stalePositions }, records] = await Promise.all([
      this.totals.totals(m, caller.accountId, scope, year),
      options.omitRecords ? [] : this.recordsOf(caller, scope, year),
    ]);
    return { records, totals, volumeTotals, stalePositions, positionIdsWithoutImpacts: options.computeMissing ? [] : missing };
  }

  private async recordsOf(caller: Caller, scope: ImpactScope, year: number): Promise<ImpactRecord[]> {
    const positionIds =
      'positionIds' in scope
        ? scope.positionIds
        : (await selectPositionIdsOfInvestor(this.ds, caller.accountId, scope.investorId));
    return this.store.records(this.ds.manager, caller.accountId, { positionIds, reportingYear: year });
  }
}

async function selectPositionIdsOfInvestor(ds: DataSource, accountId: string, investorId: number): Promise<number[]> {
  const rows: { id: number }[] = await ds.query(`SELECT id FROM portfolio.positions WHERE account_id = $1 AND investor_id = $2`, [accountId, investorId]);
  return rows.map((r) => r.id);
}
