import { AlreadyExistsError, NotFoundError } from '@green-impact/shared/errors';
import { renderFakeDocument } from './fake-documents.js';
import { fakePage } from './fake-pages.js';
import { opener, q, type FakePortfolioRecord } from './fake-portfolio-records.js';
import type { PortfolioServiceService } from '@green-impact/proto/greenimpact/portfolio/v1/portfolio';
import type { UnaryHandlers } from '@green-impact/shared/grpc/server';
import type { FakePortfolioStore } from './fake-portfolio-store.js';

/** The portfolios methods of the fake PortfolioService, and the impacts of positions, portfolios and investors. */
export function fakePortfolioHandlers(store: FakePortfolioStore): Partial<UnaryHandlers<typeof PortfolioServiceService>> {
  const { db, recomputeJobs, newId, record, mine, readInvestor, readPosition, readPortfolio, portfolioOf, membership, allowed, requestedInvestor, compute, summary } = store;
  return {
    async getPortfolios(req, ctx) {
      const c = record('getPortfolios', req, ctx);
      const ok = allowed(req.investorFilterActive, req.investorIdentifiersAllowed);
      const investor = req.investorFilterActive && req.investorIdentifier && !req.investorIdentifiersAllowed.includes(req.investorIdentifier)
        ? null
        : requestedInvestor(c, req.investorIdentifier);
      const open = opener([...new Set(mine(db.portfolios, c).map((f) => f.investor))], req.decryptionKey);
      const list = mine(db.portfolios, c)
        .filter((f) => investor !== null && ok(f.investor) && (investor === undefined || f.investor === investor))
        .map((f) => {
          const held = f.positionIds.map((id) => db.positions.find((p) => p.id === id)!);
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
    async getImpactRecomputeJob(req, ctx) {
      return recomputeJobs.get(record('getImpactRecomputeJob', req, ctx), req.jobId);
    },
    async listImpactRecomputeJobs(req, ctx) {
      return recomputeJobs.list(record('listImpactRecomputeJobs', req, ctx), req);
    },
    async getPortfolioPositions(req, ctx) {
      const c = record('getPortfolioPositions', req, ctx);
      const f = readPortfolio(c, req.portfolioIdentifier);
      const held = f.positionIds.map((id) => db.positions.find((p) => p.id === id)!);
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
      const existing = mine(db.portfolios, c).find((f) => f.identifier === req.portfolioIdentifier);
      if (existing && existing.investor !== investor) throw new AlreadyExistsError(`A portfolio ${q(req.portfolioIdentifier)} already exists.`);
      if (existing && req.portfolioIdentifierChanged !== undefined) {
        existing.identifier = req.portfolioIdentifierChanged;
        return { message: 'Portfolio changed.', id: existing.id };
      }
      if (existing) return { message: `Portfolio already exists with id ${existing.id}.`, id: existing.id };
      const f: FakePortfolioRecord = { id: newId(), account: c.accountId, identifier: req.portfolioIdentifier, investor, positionIds: [] };
      db.portfolios.push(f);
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
      db.portfolios = db.portfolios.filter((x) => x !== f);
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
      const held = f.positionIds.map((id) => db.positions.find((p) => p.id === id)!);
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
      const s = await summary(c, mine(db.positions, c).filter((p) => p.investor === i), req.reportingYear, req.computeMissing);
      return { investorIdentifier: i.identifier, ...s, stalePositions: 0 };
    },
  };
}
