import type { Visibility } from '@green-impact/proto/greenimpact/common/v1/common';
import type {
  Asset,
  AssetFrameworkDetail,
  GetInvestorImpactsResponse,
  GetPortfolioImpactsResponse,
  ImpactRecord,
  Investor,
  Portfolio,
  Position,
} from '@green-impact/proto/greenimpact/portfolio/v1/portfolio';
import { refuseReadOnlyWrite } from '../auth.js';
import { portfolioClient } from '../clients.js';
import { NO_INVESTOR_FILTER as NO_FILTER, type InvestorFilter } from '../catalogue/portfolio/investor-filter.js';
import { BatchLoader } from './batch-loader.js';
import { callAs, type GraphqlContext } from './context.js';
import { callerOf, streamService } from '../catalogue/operation.js';
import type { PageRequest, ServicePage } from './pagination.js';
import { RequestMemo } from './request-memo.js';

/**
 * Assets, investors, positions, portfolios and impacts as GraphQL resolves them, for one request. Nested
 * fields never read one item at a time: items named by their parents are collected by per-request
 * DataLoaders (batch-loader.ts) and read in one batch call per tick — GetAssetsByIdentifiers,
 * GetInvestorsByIdentifiers and GetPositionsByIds (per decryption key), up to 1 000 keys a call — and
 * listings are read once per request and grouped (Investor.positions, Investor.portfolios,
 * Framework.assets). Impacts come per (investor, year) from GetInvestorImpacts, which Position.impacts
 * shares, and per (portfolio, year) from GetPortfolioImpacts. Nothing is cached across requests.
 */

type Key = string | undefined;

/**
 * A message read with a decryption key, carrying it: the nested investors and positions of what it
 * answers (portfolio-objects.ts) are read with the same key.
 */
export type Keyed<T> = T & { decryptionKey: Key };

export const keyed = <T>(message: T, decryptionKey: Key): Keyed<T> => ({ ...message, decryptionKey });

/** An investor's or a portfolio's positions, as StreamImpactRecords names them. */
export type ImpactScope = { investorIdentifier: string } | { portfolioIdentifier: string };

/** An investor's or a portfolio's impacts of a year, with whose records they are (recordConnection streams them). */
export type ImpactSummary = (GetInvestorImpactsResponse | GetPortfolioImpactsResponse) & { scope: ImpactScope };

/** A record's key in its scope and year (position, sub category, indicator): a recordConnection cursor's id. */
export const impactKeyOf = (r: ImpactRecord) => `${r.positionId}.${r.subCategoryId}.${r.indicatorId}`;
export const IMPACT_KEY = /^[1-9][0-9]{0,14}\.[0-9]{1,15}\.[0-9]{1,15}$/;

export interface PositionListing {
  investorIdentifier: string;
  assetIdentifier?: string | undefined;
  issuerIdentifier?: string | undefined;
  decryptionKey: Key;
  filter: InvestorFilter;
}

export interface AssetListing {
  visibility?: Visibility | undefined;
  issuerIdentifier?: string | undefined;
  frameworkIdentifier?: string | undefined;
}


export interface PortfolioListing {
  investorIdentifier: string;
  assetIdentifier?: string | undefined;
  decryptionKey: Key;
  filter: InvestorFilter;
}

function groupBy<T>(items: readonly T[], keyOf: (item: T) => string | number): Map<string | number, T[]> {
  const groups = new Map<string | number, T[]>();
  for (const item of items) {
    const k = keyOf(item);
    const group = groups.get(k);
    if (group) group.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}

/** One request's portfolio reads; get it with {@link portfolioReads}. */
export class PortfolioReads {
  private readonly memo = new RequestMemo();
  private readonly assetLoader: BatchLoader<string, Asset>;
  /** Per decryption key: a batch answers in clear only what that key opens. */
  private readonly investorLoaders = new Map<Key, BatchLoader<string, Keyed<Investor>>>();
  private readonly positionLoaders = new Map<Key, BatchLoader<number, Keyed<Position>>>();

  constructor(private readonly ctx: GraphqlContext) {
    this.assetLoader = new BatchLoader(async (assetIdentifiers) => {
      const { assets } = await this.client().getAssetsByIdentifiers({ assetIdentifiers }, await callAs(this.ctx));
      return new Map(assets.map((a) => [a.assetIdentifier, a]));
    });
  }

  // ---- assets ----

  assets(filter: AssetListing): Promise<Asset[]> {
    return this.memo.once(['assets', filter.visibility, filter.issuerIdentifier, filter.frameworkIdentifier], async () => {
      const req = { issuerVisibility: filter.visibility, issuerIdentifier: filter.issuerIdentifier, frameworkIdentifier: filter.frameworkIdentifier };
      return (await this.client().getAssets(req, await callAs(this.ctx))).assets;
    });
  }


  /** The asset an identifier reads for the caller (own first, else public); undefined when none is visible. */
  asset(identifier: string): Promise<Asset | undefined> {
    return this.assetLoader.load(identifier);
  }

  /** Visible assets linked to the framework (by id: the identifier may since name another framework). */
  async assetsOfFramework(framework: { frameworkId: number }): Promise<Asset[]> {
    return (await this.assets({})).filter((a) => a.frameworkId === framework.frameworkId);
  }

  assetFrameworkDetails(identifier: string, year: number, languageCode: string | undefined): Promise<AssetFrameworkDetail | undefined> {
    return this.memo.once(['assetFrameworkDetails', identifier, year, languageCode], async () => {
      const req = { assetIdentifier: identifier, reportingYear: year, languageCode };
      return (await this.client().getAssetFrameworkDetails(req, await callAs(this.ctx))).frameworks[0];
    });
  }

  // ---- investors ----


  investor(identifier: string, decryptionKey: Key): Promise<Keyed<Investor> | undefined> {
    let loader = this.investorLoaders.get(decryptionKey);
    if (!loader) {
      loader = new BatchLoader(async (investorIdentifiers) => {
        const { investors } = await this.client().getInvestorsByIdentifiers({ investorIdentifiers, decryptionKey }, await callAs(this.ctx));
        return new Map(investors.map((i) => [i.investorIdentifier, keyed(i, decryptionKey)]));
      });
      this.investorLoaders.set(decryptionKey, loader);
    }
    return loader.load(identifier);
  }

  // ---- positions ----

  positions(listing: PositionListing): Promise<Keyed<Position>[]> {
    const { filter, decryptionKey } = listing;
    const parts = ['positions', listing.investorIdentifier, listing.assetIdentifier, listing.issuerIdentifier, decryptionKey, filter.investorFilterActive, filter.investorIdentifiersAllowed];
    return this.memo.once(parts, async () =>
      (await this.client().getPositions(positionsRequest(listing), await callAs(this.ctx))).positions.map((p) => keyed(p, decryptionKey)),
    );
  }


  /**
   * From one listing of every position of the account, whatever the number of investors asked about. The
   * listing is read without the key: its investor names are not used (Position.investor reads the
   * investor with the key the positions carry), and another investor's key must not fail this one's.
   */
  async positionsOfInvestor(identifier: string, decryptionKey: Key): Promise<Keyed<Position>[]> {
    const grouped = await this.memo.once(['positionsByInvestor'], async () =>
      groupBy(await this.positions({ investorIdentifier: '', decryptionKey: undefined, filter: NO_FILTER }), (p) => p.investorIdentifier),
    );
    return (grouped.get(identifier) ?? []).map((p) => keyed(p, decryptionKey));
  }

  position(id: number, decryptionKey: Key): Promise<Keyed<Position> | undefined> {
    let loader = this.positionLoaders.get(decryptionKey);
    if (!loader) {
      loader = new BatchLoader(async (positionIds) => {
        const { positions } = await this.client().getPositionsByIds({ positionIds, decryptionKey }, await callAs(this.ctx));
        return new Map(positions.map((p) => [p.positionId, keyed(p, decryptionKey)]));
      });
      this.positionLoaders.set(decryptionKey, loader);
    }
    return loader.load(id);
  }

  // ---- portfolios ----

  portfolios(listing: PortfolioListing): Promise<Keyed<Portfolio>[]> {
    const { filter, decryptionKey } = listing;
    const parts = ['portfolios', listing.investorIdentifier, listing.assetIdentifier, decryptionKey, filter.investorFilterActive, filter.investorIdentifiersAllowed];
    return this.memo.once(parts, async () => {
      const req = { investorIdentifier: listing.investorIdentifier, assetIdentifier: listing.assetIdentifier, decryptionKey, ...filter };
      return (await this.client().getPortfolios(req, await callAs(this.ctx))).portfolios.map((p) => keyed(p, decryptionKey));
    });
  }


  /** One portfolio of the account (identifiers are unique per account), from the listing read without the key. */
  async portfolio(identifier: string, decryptionKey: Key): Promise<Keyed<Portfolio> | undefined> {
    const all = await this.portfolios({ investorIdentifier: '', decryptionKey: undefined, filter: NO_FILTER });
    const found = all.find((p) => p.portfolioIdentifier === identifier);
    return found && keyed(found, decryptionKey);
  }

  /** As {@link positionsOfInvestor}: one listing of the account's portfolios, read without the key. */
  async portfoliosOfInvestor(identifier: string, decryptionKey: Key): Promise<Keyed<Portfolio>[]> {
    const grouped = await this.memo.once(['portfoliosByInvestor'], async () =>
      groupBy(await this.portfolios({ investorIdentifier: '', decryptionKey: undefined, filter: NO_FILTER }), (p) => p.investorIdentifier),
    );
    return (grouped.get(identifier) ?? []).map((p) => keyed(p, decryptionKey));
  }

  // ---- impacts ----

  /** withRecords false: totals only (the records are left empty; the quick read of a large investor). */
  investorImpacts(identifier: string, year: number, computeMissing: boolean, withRecords = true): Promise<ImpactSummary> {
    return this.memo.once(['investorImpacts', identifier, year, computeMissing, withRecords], async () => {
      const req = { investorIdentifier: identifier, reportingYear: year, computeMissing, omitRecords: !withRecords };
      const res = await this.client().getInvestorImpacts(req, await this.callStoring(computeMissing));
      return { ...res, scope: { investorIdentifier: res.investorIdentifier } };
    });
  }

  /**
   * One page of a scope's records of the year (ImpactSummary.recordConnection): StreamImpactRecords asked
   * for `page.pageSize` records after the page token, which it answers as one message with the count.
   */
  async impactRecordPage(scope: ImpactScope, year: number, page: PageRequest): Promise<ServicePage<ImpactRecord>> {
    const request = { investorIdentifier: '', portfolioIdentifier: '', ...scope, reportingYear: year, pageSize: page.pageSize, limit: page.pageSize, pageToken: page.pageToken ?? '', columns: false };
    const answer: ServicePage<ImpactRecord> = { items: [], nextPageToken: '', totalCount: 0 };
    for await (const part of streamService(await callerOf(this.ctx), 'portfolio', 'streamImpactRecords', request)) {
      answer.items.push(...part.impacts);
      answer.nextPageToken = part.nextPageToken;
      answer.totalCount = part.totalCount ?? answer.totalCount;
    }
    return answer;
  }

  /** A position's stored records of the year, from its investor's records: one call per investor and year. */
  async positionImpacts(position: Keyed<Position>, year: number): Promise<ImpactRecord[]> {
    const grouped = await this.memo.once(['positionImpacts', position.investorIdentifier, year], async () =>
      groupBy((await this.investorImpacts(position.investorIdentifier, year, false)).impacts, (r) => r.positionId),
    );
    return grouped.get(position.positionId) ?? [];
  }

  portfolioImpacts(identifier: string, year: number, computeMissing: boolean, withRecords = true): Promise<ImpactSummary> {
    return this.memo.once(['portfolioImpacts', identifier, year, computeMissing, withRecords], async () => {
      const req = { portfolioIdentifier: identifier, reportingYear: year, computeMissing, omitRecords: !withRecords };
      const res = await this.client().getPortfolioImpacts(req, await this.callStoring(computeMissing));
      return { ...res, scope: { portfolioIdentifier: res.portfolioIdentifier } };
    });
  }

  /** computeMissing stores the records it computes: a write inside a query, which a read-only token is refused. */
  private async callStoring(computeMissing: boolean) {
    if (computeMissing) refuseReadOnlyWrite(await this.ctx.auth());
    return callAs(this.ctx);
  }

  private client() {
    return portfolioClient(this.ctx.clients);
  }
}

const perRequest = new WeakMap<GraphqlContext, PortfolioReads>();

/** The request's PortfolioReads (one per GraphQL context). */
export function portfolioReads(ctx: GraphqlContext): PortfolioReads {
  let reads = perRequest.get(ctx);
  if (!reads) perRequest.set(ctx, (reads = new PortfolioReads(ctx)));
  return reads;
}

/** Drops the request's memoised reads: a change made since makes them stale (payloads.ts). */
export function forgetPortfolioReads(ctx: GraphqlContext): void {
  perRequest.delete(ctx);
}

/** GetPositions of a listing, whole (page fields absent). */
function positionsRequest(listing: PositionListing) {
  return {
    investorIdentifier: listing.investorIdentifier,
    assetIdentifier: listing.assetIdentifier,
    issuerIdentifier: listing.issuerIdentifier,
    decryptionKey: listing.decryptionKey,
    ...listing.filter,
  };
}
