import { randomBytes } from 'node:crypto';
import { InvalidArgumentError, NotFoundError } from '@green-impact/shared/errors';
import { fakePage } from './fake-pages.js';
import { investorMsgs, positionMsgs, q, type FakeInvestor } from './fake-portfolio-records.js';
import type { PortfolioServiceService } from '@green-impact/proto/greenimpact/portfolio/v1/portfolio';
import type { UnaryHandlers } from '@green-impact/shared/grpc/server';
import type { FakePortfolioStore } from './fake-portfolio-store.js';

/** The investors and positions methods of the fake PortfolioService. */
export function fakeHoldingHandlers(store: FakePortfolioStore): Partial<UnaryHandlers<typeof PortfolioServiceService>> {
  const { db, newId, record, mine, readInvestor, readAsset, compute, newPosition, allowed, requestedInvestor } = store;
  return {
    async getInvestors(req, ctx) {
      const c = record('getInvestors', req, ctx);
      if (req.pageSize === undefined) return { investors: investorMsgs(mine(db.investors, c), req.decryptionKey), nextPageToken: '' };
      const page = fakePage(mine(db.investors, c), req);
      return { investors: investorMsgs(page.items, req.decryptionKey), nextPageToken: page.nextPageToken, totalCount: page.totalCount };
    },
    async getInvestorsByIdentifiers(req, ctx) {
      const c = record('getInvestorsByIdentifiers', req, ctx);
      if (req.investorIdentifiers.length > 1000) throw new InvalidArgumentError('investor_identifiers may hold at most 1000 entries.');
      const found = [...new Set(req.investorIdentifiers)].flatMap((i) => mine(db.investors, c).find((x) => x.identifier === i) ?? []);
      return { investors: investorMsgs(found, req.decryptionKey) };
    },
    async generateInvestorIdentifier(req, ctx) {
      record('generateInvestorIdentifier', req, ctx);
      return { investorIdentifier: `inv_${randomBytes(10).toString('hex').slice(0, 20)}` };
    },
    async addInvestor(req, ctx) {
      const c = record('addInvestor', req, ctx);
      const existing = mine(db.investors, c).find((i) => i.identifier === req.investorIdentifier);
      const fields = { name: req.investorName, currency: req.investorCurrencyCode, key: req.encryptionKey };
      if (existing) {
        Object.assign(existing, fields, { email: req.investorEmail ?? existing.email });
        return { message: 'Investor updated.', id: existing.id };
      }
      const i: FakeInvestor = { id: newId(), account: c.accountId, identifier: req.investorIdentifier, email: req.investorEmail, ...fields };
      db.investors.push(i);
      return { message: 'Investor added.', id: i.id };
    },
    async removeInvestor(req, ctx) {
      const c = record('removeInvestor', req, ctx);
      const i = readInvestor(c, req.investorIdentifier);
      db.investors = db.investors.filter((x) => x !== i);
      db.positions = db.positions.filter((p) => p.investor !== i);
      db.portfolios = db.portfolios.filter((f) => f.investor !== i);
      return { message: 'Investor removed.', id: i.id, investorIdentifier: i.identifier };
    },

    async getPositions(req, ctx) {
      const c = record('getPositions', req, ctx);
      const ok = allowed(req.investorFilterActive, req.investorIdentifiersAllowed);
      const investor = req.investorFilterActive && req.investorIdentifier && !req.investorIdentifiersAllowed.includes(req.investorIdentifier)
        ? null
        : requestedInvestor(c, req.investorIdentifier);
      const list = mine(db.positions, c).filter(
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
      const found = [...new Set(req.positionIds)].flatMap((id) => mine(db.positions, c).find((p) => p.id === id) ?? []);
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
      db.positions.push(p);
      return { message: `Position added with id ${p.id}.`, id: p.id, impacts };
    },
    async removePosition(req, ctx) {
      const c = record('removePosition', req, ctx);
      const p = mine(db.positions, c).find((x) => x.id === req.positionId && x.investor.identifier === req.investorIdentifier);
      if (!p) throw new NotFoundError(`No position ${req.positionId} of investor ${q(req.investorIdentifier)}.`);
      db.positions = db.positions.filter((x) => x !== p);
      for (const f of db.portfolios) f.positionIds = f.positionIds.filter((id) => id !== p.id);
      return { message: 'Position removed.', id: p.id };
    },
  };
}
