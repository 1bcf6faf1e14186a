import { randomBytes } from 'node:crypto';
import { Visibility } from '@green-impact/proto/greenimpact/common/v1/common';
import { PortfolioServiceService } from '@green-impact/proto/greenimpact/portfolio/v1/portfolio';
import { TaxonomyServiceService } from '@green-impact/proto/greenimpact/taxonomy/v1/taxonomy';
import type { Caller } from '@green-impact/shared/caller';
import {
  AlreadyExistsError,
  FailedPreconditionError,
  InvalidArgumentError,
  NotAuthorizedError,
  NotFoundError,
  UnauthenticatedError,
} from '@green-impact/shared/errors';
import { createGrpcClient } from '@green-impact/shared/grpc/client';
import { implement, type CallContext } from '@green-impact/shared/grpc/server';
import { serveFake } from './fake-server.js';
import { createLogger } from '@green-impact/shared/logger';
import { renderFakeDocument } from './fake-documents.js';
import { fakePage } from './fake-pages.js';
import { fakeRecomputeJobs } from './fake-recompute-jobs.js';
import { computeRecords, totalsOf } from './fake-portfolio-impacts.js';
import {
  assetMsg,
  holding,
  investorMsgs,
  opener,
  positionMsgs,
  q,
  type FakeAsset,
  type FakeInvestor,
  type FakePortfolioRecord,
  type FakePosition,
} from './fake-portfolio-records.js';

/**
 * A small in-memory PortfolioService served over real gRPC, for the gateway's own tests. It is not the
 * portfolio service: messages are modelled on services/portfolio/src/messages.ts and rules are only as
 * faithful as the gateway's tests need. Frameworks (for addAsset, asset details and impacts) come from the
 * fake TaxonomyService over gRPC, as the caller, as the real service does it. PII "encryption" keeps the
 * key next to the name: a read shows the name only with that key, masks it without one, and refuses a
 * key that opens none of the encrypted records read.
 */
export interface FakePortfolio {
  address: string;
  /** Every call received: method name, the request as decoded, and the caller the gateway sent. */
  calls: { method: string; request: unknown; caller: Caller | undefined }[];
  /** Number of calls of one method (e.g. `getPositionsByIds`) since the start. */
  count(method: string): number;
  /**
   * Adds `count` positions of an existing investor in an existing asset directly (no gRPC), with the
   * impacts of `year` and in the investor's portfolio `portfolioIdentifier` when given; answers their ids.
   * For tests that need many positions.
   */
  seedPositions(
    caller: Caller,
    seed: { investorIdentifier: string; assetIdentifier: string; count: number; amount: number; year?: number; portfolioIdentifier?: string },
  ): Promise<number[]>;
  /** Adds finished recompute jobs created at the given times (ISO); answers their ids. For the jobs connection. */
  seedRecomputeJobs(caller: Caller, createdAt: string[]): string[];
  stop(): Promise<void>;
}

export async function startFakePortfolio(options: { taxonomyAddress: string }): Promise<FakePortfolio> {
  const log = createLogger('fake-portfolio', { level: 'silent' });
  const taxonomy = createGrpcClient(TaxonomyServiceService, options.taxonomyAddress);
  const calls: FakePortfolio['calls'] = [];
  let assets: FakeAsset[] = [];
  let investors: FakeInvestor[] = [];
  let positions: FakePosition[] = [];
  let portfolios: FakePortfolioRecord[] = [];
  let nextId = 1;
  let nextImpactId = 1;
  const recomputeJobs = fakeRecomputeJobs();

  const record = (method: string, request: unknown, ctx: CallContext): Caller => {
    calls.push({ method, request, caller: ctx.caller });
    if (!ctx.caller) throw new UnauthenticatedError();
    return ctx.caller;
  };
  const mine = <T extends { account: string }>(list: T[], c: Caller) => list.filter((x) => x.account === c.accountId);

  // ---- assets ----
  const visibleAssets = (c: Caller) =>
    assets.filter((a) => a.account === c.accountId || a.visibility === Visibility.VISIBILITY_PUBLIC).sort((a, b) => Number(b.account === c.accountId) - Number(a.account === c.accountId) || a.id - b.id);
  const findAsset = (c: Caller, identifier: string) => visibleAssets(c).find((a) => a.identifier === identifier);
  const readAsset = (c: Caller, identifier: string) => {
    const found = findAsset(c, identifier);
    if (!found) throw new NotFoundError(`No such asset ${q(identifier)}.`);
    return found;
  };
  const frameworkDetail = async (c: Caller, frameworkIdentifier: string, year: number, languageCode?: string) => {
    const { frameworks } = await taxonomy.getFrameworkDetails({ frameworkIdentifier, reportingYear: year, languageCode }, { caller: c });
    return frameworks[0]!;
  };

  // ---- investors ----
  const readInvestor = (c: Caller, identifier: string) => {
    const found = mine(investors, c).find((i) => i.identifier === identifier);
    if (!found) throw new NotFoundError('No such investor.');
    return found;
  };

  // ---- positions ----
  const compute = async (c: Caller, p: FakePosition, year: number) => {
    const detail = await frameworkDetail(c, p.asset.frameworkIdentifier, year);
    return computeRecords(holding(p), detail, year, () => nextImpactId++);
  };
  const readPosition = (c: Caller, id: number) => {
    const found = mine(positions, c).find((p) => p.id === id);
    if (!found) throw new NotFoundError(`No such position ${id}.`);
    return found;
  };
  /** Records of the positions for the year, computing the missing ones when asked. */
  const summary = async (c: Caller, list: FakePosition[], year: number, computeMissing: boolean) => {
    if (computeMissing) for (const p of list) if (!p.impacts.has(year)) p.impacts.set(year, await compute(c, p, year));
    const impacts = list.flatMap((p) => p.impacts.get(year) ?? []);
    return { reportingYear: year, ...totalsOf(impacts), impacts, positionIdsWithoutImpacts: list.filter((p) => !p.impacts.has(year)).map((p) => p.id) };
  };
  const newPosition = (c: Caller, investor: FakeInvestor, asset: FakeAsset, terms: { amount: number; currency: string; days?: number | undefined; startDate?: string | undefined }) => {
    if (!(terms.amount > 0)) throw new InvalidArgumentError('position_amount must be a positive number.');
    const p: FakePosition = {
      id: nextId++,
      account: c.accountId,
      investor,
      asset,
      amount: terms.amount,
      currency: terms.currency,
      days: terms.days ?? 365,
      startDate: terms.startDate,
      impacts: new Map(),
    };
    return p;
  };

  // ---- portfolios ----
  const readPortfolio = (c: Caller, identifier: string) => {
    const found = mine(portfolios, c).find((f) => f.identifier === identifier);
    if (!found) throw new NotFoundError(`No such portfolio ${q(identifier)}.`);
    return found;
  };
  const portfolioOf = (c: Caller, investorIdentifier: string, identifier: string) => {
    const investor = readInvestor(c, investorIdentifier);
    const found = mine(portfolios, c).find((f) => f.identifier === identifier && f.investor === investor);
    if (!found) throw new NotFoundError(`No portfolio ${q(identifier)} of investor ${q(investorIdentifier)}.`);
    return found;
  };
  const membership = (c: Caller, investorIdentifier: string, identifier: string, positionId: number) => {
    const portfolio = portfolioOf(c, investorIdentifier, identifier);
    const position = mine(positions, c).find((p) => p.id === positionId && p.investor === portfolio.investor);
    if (!position) throw new NotFoundError(`No position ${positionId} of investor ${q(investorIdentifier)}.`);
    return portfolio;
  };
  /** The spec's user filter: an investor outside the allowed list lists nothing. */
  const allowed = (filterActive: boolean, list: string[]) => (i: FakeInvestor) => !filterActive || list.includes(i.identifier);
  const requestedInvestor = (c: Caller, identifier: string) => (identifier === '' ? undefined : readInvestor(c, identifier));

  const implementation = implement(
    'greenimpact.portfolio.v1.PortfolioService',
    PortfolioServiceService,
    {
      async getAssets(req, ctx) {
        const c = record('getAssets', req, ctx);
        const list = visibleAssets(c).filter(
          (a) =>
            (req.issuerVisibility === undefined || a.visibility === req.issuerVisibility) &&
            (req.issuerIdentifier === undefined || a.issuerIdentifier === req.issuerIdentifier) &&
            (req.frameworkIdentifier === undefined || a.frameworkIdentifier === req.frameworkIdentifier),
        );
        if (req.pageSize === undefined) return { assets: list.map((a) => assetMsg(a, c)), nextPageToken: '' };
        const page = fakePage(list, req);
        return { assets: page.items.map((a) => assetMsg(a, c)), nextPageToken: page.nextPageToken, totalCount: page.totalCount };
      },
      async getAssetsByIdentifiers(req, ctx) {
        const c = record('getAssetsByIdentifiers', req, ctx);
        if (req.assetIdentifiers.length > 1000) throw new InvalidArgumentError('asset_identifiers may hold at most 1000 entries.');
        const found = [...new Set(req.assetIdentifiers)].flatMap((i) => findAsset(c, i) ?? []);
        return { assets: found.map((a) => assetMsg(a, c)) };
      },
      async getAssetFrameworkDetails(req, ctx) {
        const c = record('getAssetFrameworkDetails', req, ctx);
        const a = readAsset(c, req.assetIdentifier);
        if (a.value === undefined) {
          throw new FailedPreconditionError(`Asset ${q(a.identifier)} has no asset_value_outstanding; its share of the framework cannot be computed.`);
        }
        const detail = await frameworkDetail(c, a.frameworkIdentifier, req.reportingYear, req.languageCode);
        const s = detail.frameworkSummary!;
        if (s.frameworkValueOutstanding === undefined || s.frameworkAllocatedAmount === undefined) {
          throw new FailedPreconditionError(`Framework ${q(s.frameworkIdentifier)} has no year specifics for ${req.reportingYear}.`);
        }
        const d = s.valueOutstandingFramework ? s.frameworkValueOutstanding : Math.max(s.frameworkAllocatedAmount, s.frameworkValueOutstanding);
        const share = a.value / d;
        const { frameworkSummary: _s, framework } = detail;
        return {
          frameworks: [
            {
              ...s,
              assetIdentifier: a.identifier,
              assetName: a.name,
              currencyCode: a.currency,
              attributionShare: share,
              attributionDenominator: d,
              fxRate: 1,
              framework: framework.map(({ frameworkCurrencyCode: _c, ...r }) => ({
                ...r,
                subCategoryVolume: share * r.subCategoryVolume,
                indicatorValue: share * r.indicatorValue,
                currencyCode: a.currency,
              })),
            },
          ],
        };
      },
      async addAsset(req, ctx) {
        const c = record('addAsset', req, ctx);
        if (req.dateIssued && req.dateMaturity && req.dateMaturity < req.dateIssued) {
          throw new InvalidArgumentError('date_maturity must not be before date_issued.');
        }
        const { frameworks } = await taxonomy.getFrameworksByIdentifiers({ frameworkIdentifiers: [req.frameworkIdentifier], frameworkIds: [] }, { caller: c });
        const framework = frameworks[0];
        if (!framework) throw new NotFoundError(`No such framework ${q(req.frameworkIdentifier)}.`);
        const existing = mine(assets, c).find((a) => a.identifier === req.assetIdentifier);
        const known = mine(assets, c).find((a) => a.issuerIdentifier === req.issuerIdentifier);
        const fields = {
          name: req.assetName,
          currency: req.assetCurrencyCode,
          issuerIdentifier: req.issuerIdentifier,
          frameworkIdentifier: framework.frameworkIdentifier,
          frameworkName: framework.frameworkName,
          frameworkId: framework.frameworkId,
        };
        if (existing) {
          Object.assign(existing, fields, {
            value: req.assetValueOutstanding ?? existing.value,
            issued: req.dateIssued ?? existing.issued,
            maturity: req.dateMaturity ?? existing.maturity,
            visibility: req.assetVisibility ?? existing.visibility,
            issuerName: req.issuerName ?? existing.issuerName,
          });
          return { message: 'Asset updated.', id: existing.id };
        }
        const a: FakeAsset = {
          id: nextId++,
          account: c.accountId,
          identifier: req.assetIdentifier,
          ...fields,
          value: req.assetValueOutstanding,
          issued: req.dateIssued,
          maturity: req.dateMaturity,
          visibility: req.assetVisibility ?? Visibility.VISIBILITY_PRIVATE,
          issuerName: req.issuerName ?? known?.issuerName ?? req.issuerIdentifier,
        };
        assets.push(a);
        return { message: `Asset added with id ${a.id}.`, id: a.id };
      },
      async removeAsset(req, ctx) {
        const c = record('removeAsset', req, ctx);
        const a = readAsset(c, req.assetIdentifier);
        if (a.account !== c.accountId) throw new NotAuthorizedError();
        const held = positions.filter((p) => p.asset === a);
        if (held.length) throw new FailedPreconditionError(`Asset ${q(a.identifier)} is still held by positions ${held.map((p) => p.id).join(', ')}; remove them first.`);
        assets = assets.filter((x) => x !== a);
        return { message: 'Asset removed.', id: a.id };
      },

      async getInvestors(req, ctx) {
        const c = record('getInvestors', req, ctx);
        if (req.pageSize === undefined) return { investors: investorMsgs(mine(investors, c), req.decryptionKey), nextPageToken: '' };
        const page = fakePage(mine(investors, c), req);
        return { investors: investorMsgs(page.items, req.decryptionKey), nextPageToken: page.nextPageToken, totalCount: page.totalCount };
      },
      async getInvestorsByIdentifiers(req, ctx) {
        const c = record('getInvestorsByIdentifiers', req, ctx);
        if (req.investorIdentifiers.length > 1000) throw new InvalidArgumentError('investor_identifiers may hold at most 1000 entries.');
        const found = [...new Set(req.investorIdentifiers)].flatMap((i) => mine(investors, c).find((x) => x.identifier === i) ?? []);
        return { investors: investorMsgs(found, req.decryptionKey) };
      },
      async generateInvestorIdentifier(req, ctx) {
        record('generateInvestorIdentifier', req, ctx);
        return { investorIdentifier: `inv_${randomBytes(10).toString('hex').slice(0, 20)}` };
      },
      async addInvestor(req, ctx) {
        const c = record('addInvestor', req, ctx);
        const existing = mine(investors, c).find((i) => i.identifier === req.investorIdentifier);
        const fields = { name: req.investorName, currency: req.investorCurrencyCode, key: req.encryptionKey };
        if (existing) {
          Object.assign(existing, fields, { email: req.investorEmail ?? existing.email });
          return { message: 'Investor updated.', id: existing.id };
        }
        const i: FakeInvestor = { id: nextId++, account: c.accountId, identifier: req.investorIdentifier, email: req.investorEmail, ...fields };
        investors.push(i);
        return { message: 'Investor added.', id: i.id };
      },
      async removeInvestor(req, ctx) {
        const c = record('removeInvestor', req, ctx);
        const i = readInvestor(c, req.investorIdentifier);
        investors = investors.filter((x) => x !== i);
        positions = positions.filter((p) => p.investor !== i);
        portfolios = portfolios.filter((f) => f.investor !== i);
        return { message: 'Investor removed.', id: i.id, investorIdentifier: i.identifier };
      },

      async getPositions(req, ctx) {
        const c = record('getPositions', req, ctx);
        const ok = allowed(req.investorFilterActive, req.investorIdentifiersAllowed);
        const investor = req.investorFilterActive && req.investorIdentifier && !req.investorIdentifiersAllowed.includes(req.investorIdentifier)
          ? null
          : requestedInvestor(c, req.investorIdentifier);
        const list = mine(positions, c).filter(
          (p) =>
            investor !== null &&
            ok(p.investor) &&
            (investor === undefined || p.investor === investor) &&
            (req.assetIdentifier === undefined || p.asset.identifier === req.assetIdentifier) &&
            (req.issuerIdentifier === undefined || p.asset.issuerIdentifier === req.issuerIdentifier),
        );
        if (req.pageSize === undefined) return { positions: positionMsgs(list, req.decryptionKey), nextPageToken: '' };
        const page = fakePage(list, req);
        return { positions: positionMsgs(page.items, req.decryptionKey), nextPageToken: page.nextPageToken, totalCount: page.totalCount };
      },
      async getPositionsByIds(req, ctx) {
        const c = record('getPositionsByIds', req, ctx);
        if (req.positionIds.length > 1000) throw new InvalidArgumentError('position_ids may hold at most 1000 entries.');
        const found = [...new Set(req.positionIds)].flatMap((id) => mine(positions, c).find((p) => p.id === id) ?? []);
        return { positions: positionMsgs(found, req.decryptionKey) };
      },
      async addPosition(req, ctx) {
        const c = record('addPosition', req, ctx);
        const p = newPosition(c, readInvestor(c, req.investorIdentifier), readAsset(c, req.assetIdentifier), {
          amount: req.positionAmount,
          currency: req.positionCurrencyCode,
          days: req.positionDays,
          startDate: req.positionStartDate,
        });
        const impacts = req.reportingYear === undefined ? [] : await compute(c, p, req.reportingYear);
        if (req.reportingYear !== undefined) p.impacts.set(req.reportingYear, impacts);
        positions.push(p);
        return { message: `Position added with id ${p.id}.`, id: p.id, impacts };
      },
      async removePosition(req, ctx) {
        const c = record('removePosition', req, ctx);
        const p = mine(positions, c).find((x) => x.id === req.positionId && x.investor.identifier === req.investorIdentifier);
        if (!p) throw new NotFoundError(`No position ${req.positionId} of investor ${q(req.investorIdentifier)}.`);
        positions = positions.filter((x) => x !== p);
        for (const f of portfolios) f.positionIds = f.positionIds.filter((id) => id !== p.id);
        return { message: 'Position removed.', id: p.id };
      },

      async getPortfolios(req, ctx) {
        const c = record('getPortfolios', req, ctx);
        const ok = allowed(req.investorFilterActive, req.investorIdentifiersAllowed);
        const investor = req.investorFilterActive && req.investorIdentifier && !req.investorIdentifiersAllowed.includes(req.investorIdentifier)
          ? null
          : requestedInvestor(c, req.investorIdentifier);
        const open = opener([...new Set(mine(portfolios, c).map((f) => f.investor))], req.decryptionKey);
        const list = mine(portfolios, c)
          .filter((f) => investor !== null && ok(f.investor) && (investor === undefined || f.investor === investor))
          .map((f) => {
            const held = f.positionIds.map((id) => positions.find((p) => p.id === id)!);
            const distinct = [...new Map(held.map((p) => [p.asset.identifier, p.asset])).values()];
            const pii = open(f.investor);
            return {
              portfolioId: f.id,
              portfolioIdentifier: f.identifier,
              investorIdentifier: f.investor.identifier,
              investorName: pii.name,
              assets: distinct.map((a) => ({ assetIdentifier: a.identifier, assetName: a.name })),
              masked: pii.masked,
              positionIds: [...f.positionIds],
            };
          })
          .filter((f) => req.assetIdentifier === undefined || f.assets.some((a) => a.assetIdentifier === req.assetIdentifier));
        if (req.pageSize === undefined) return { portfolios: list, nextPageToken: '' };
        const page = fakePage(list.map((f) => ({ ...f, id: f.portfolioId })), req);
        return { portfolios: page.items.map(({ id: _id, ...f }) => f), nextPageToken: page.nextPageToken, totalCount: page.totalCount };
      },
      async listImpactRecomputeJobs(req, ctx) {
        return recomputeJobs.list(record('listImpactRecomputeJobs', req, ctx), req);
      },
      async getPortfolioPositions(req, ctx) {
        const c = record('getPortfolioPositions', req, ctx);
        const f = readPortfolio(c, req.portfolioIdentifier);
        const held = f.positionIds.map((id) => positions.find((p) => p.id === id)!);
        return {
          positions: held.map((p) => ({
            positionId: p.id,
            positionAmount: p.amount,
            positionCurrencyCode: p.currency,
            positionDays: p.days,
            assetIdentifier: p.asset.identifier,
            assetName: p.asset.name,
            issuerIdentifier: p.asset.issuerIdentifier,
            issuerName: p.asset.issuerName,
            positionStartDate: p.startDate,
          })),
        };
      },
      async addPortfolio(req, ctx) {
        const c = record('addPortfolio', req, ctx);
        const investor = readInvestor(c, req.investorIdentifier);
        const existing = mine(portfolios, c).find((f) => f.identifier === req.portfolioIdentifier);
        if (existing && existing.investor !== investor) throw new AlreadyExistsError(`A portfolio ${q(req.portfolioIdentifier)} already exists.`);
        if (existing && req.portfolioIdentifierChanged !== undefined) {
          existing.identifier = req.portfolioIdentifierChanged;
          return { message: 'Portfolio changed.', id: existing.id };
        }
        if (existing) return { message: `Portfolio already exists with id ${existing.id}.`, id: existing.id };
        const f: FakePortfolioRecord = { id: nextId++, account: c.accountId, identifier: req.portfolioIdentifier, investor, positionIds: [] };
        portfolios.push(f);
        return { message: `Portfolio added with id ${f.id}.`, id: f.id };
      },
      async addPositionToPortfolio(req, ctx) {
        const c = record('addPositionToPortfolio', req, ctx);
        const f = membership(c, req.investorIdentifier, req.portfolioIdentifier, req.positionId);
        if (f.positionIds.includes(req.positionId)) {
          throw new AlreadyExistsError(`Position ${req.positionId} is already in portfolio ${q(f.identifier)}.`);
        }
        f.positionIds.push(req.positionId);
        return { message: 'Position added to portfolio.', id: f.id };
      },
      async removePositionFromPortfolio(req, ctx) {
        const c = record('removePositionFromPortfolio', req, ctx);
        const f = membership(c, req.investorIdentifier, req.portfolioIdentifier, req.positionId);
        if (!f.positionIds.includes(req.positionId)) throw new NotFoundError(`Position ${req.positionId} is not in portfolio ${q(f.identifier)}.`);
        f.positionIds = f.positionIds.filter((id) => id !== req.positionId);
        return { message: 'Position removed from portfolio.', id: f.id };
      },
      async removePortfolio(req, ctx) {
        const c = record('removePortfolio', req, ctx);
        const f = portfolioOf(c, req.investorIdentifier, req.portfolioIdentifier);
        portfolios = portfolios.filter((x) => x !== f);
        return { message: 'Portfolio removed.', id: f.id };
      },

      async computePositionImpacts(req, ctx) {
        const c = record('computePositionImpacts', req, ctx);
        const p = readPosition(c, req.positionId);
        const impacts = await compute(c, p, req.reportingYear);
        p.impacts.set(req.reportingYear, impacts);
        const n = impacts.length;
        return { message: `Impacts of position ${p.id} for ${req.reportingYear} computed: ${n} ${n === 1 ? 'record' : 'records'}.`, id: p.id, impacts };
      },
      async getPositionImpacts(req, ctx) {
        const c = record('getPositionImpacts', req, ctx);
        const p = readPosition(c, req.positionId);
        if (req.reportingYear === undefined) return { impacts: [...p.impacts.values()].flat() };
        return { impacts: (await summary(c, [p], req.reportingYear, req.computeMissing)).impacts };
      },
      async getPortfolioImpacts(req, ctx) {
        const c = record('getPortfolioImpacts', req, ctx);
        const f = readPortfolio(c, req.portfolioIdentifier);
        const held = f.positionIds.map((id) => positions.find((p) => p.id === id)!);
        const s = await summary(c, held, req.reportingYear, req.computeMissing);
        return { portfolioIdentifier: f.identifier, investorIdentifier: f.investor.identifier, ...s, stalePositions: 0 };
      },
      async renderPositionImpactsDocument(req, ctx) {
        const c = record('renderPositionImpactsDocument', req, ctx);
        const p = readPosition(c, req.positionId);
        const impacts = p.impacts.get(req.reportingYear) ?? (await compute(c, p, req.reportingYear));
        const data = {
          document: 'position_impacts',
          position_id: p.id,
          reporting_year: req.reportingYear,
          investor: req.writeInvestorToBlockchain ? p.investor.identifier : null,
          impacts: impacts.map((i) => [i.indicatorId, i.value]),
        };
        return {
          ...renderFakeDocument(req.format, `Position ${p.id}`, data),
          investorIdentifier: p.investor.identifier,
          positionId: p.id,
          assetIdentifier: p.asset.identifier,
          frameworkIdentifier: p.asset.frameworkIdentifier,
        };
      },
      async getInvestorImpacts(req, ctx) {
        const c = record('getInvestorImpacts', req, ctx);
        const i = readInvestor(c, req.investorIdentifier);
        const s = await summary(c, mine(positions, c).filter((p) => p.investor === i), req.reportingYear, req.computeMissing);
        return { investorIdentifier: i.identifier, ...s, stalePositions: 0 };
      },
    },
    log,
  );

  const started = await serveFake({ name: 'greenimpact.portfolio.v1.PortfolioService', definition: PortfolioServiceService, implementation, protoFile: 'portfolio' }, log);
  return {
    address: started.address,
    calls,
    count: (method) => calls.filter((c) => c.method === method).length,
    async seedPositions(caller, seed) {
      const investor = readInvestor(caller, seed.investorIdentifier);
      const asset = readAsset(caller, seed.assetIdentifier);
      const detail = seed.year === undefined ? undefined : await frameworkDetail(caller, asset.frameworkIdentifier, seed.year);
      const ids: number[] = [];
      for (let n = 0; n < seed.count; n++) {
        const p = newPosition(caller, investor, asset, { amount: seed.amount, currency: asset.currency });
        if (detail && seed.year !== undefined) p.impacts.set(seed.year, computeRecords(holding(p), detail, seed.year, () => nextImpactId++));
        positions.push(p);
        ids.push(p.id);
      }
      if (seed.portfolioIdentifier !== undefined) portfolioOf(caller, seed.investorIdentifier, seed.portfolioIdentifier).positionIds.push(...ids);
      return ids;
    },
    seedRecomputeJobs: (caller, seed) => recomputeJobs.seed(caller, seed),
    async stop() {
      taxonomy.close();
      await started.shutdown(1_000);
    },
  };
}
