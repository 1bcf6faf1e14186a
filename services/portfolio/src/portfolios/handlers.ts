import * as v from '../validation.js';
import type { Portfolio, PortfolioServiceService } from '@green-impact/proto/greenimpact/portfolio/v1/portfolio';
import { requireAccount } from '../caller.js';
import type { UnaryHandlers } from '@green-impact/shared/grpc/server';
import { MSG } from '../messages.js';
import type { PortfolioStores } from '../stores.js';
import type { PortfolioView } from './portfolio-listing.js';

type Handlers = UnaryHandlers<typeof PortfolioServiceService>;

/** §4.10 portfolios. */
export function portfolioHandlers(
  s: PortfolioStores,
): Pick<Handlers, 'getPortfolios' | 'getPortfolioPositions' | 'addPortfolio' | 'addPositionToPortfolio' | 'removePositionFromPortfolio' | 'removePortfolio'> {
  return {
    async getPortfolios(req, ctx) {
      const caller = requireAccount(ctx.caller);
      const filter = {
        investorIdentifier: v.optionalText('investor_identifier', req.investorIdentifier),
        assetIdentifier: v.optionalText('asset_identifier', req.assetIdentifier),
        investorsAllowed: req.investorFilterActive ? req.investorIdentifiersAllowed : undefined,
      };
      // No page asked for: the whole list up to MAX_LIST_ITEMS (/v1/call's getPortfolios); total_count says it was cut.
      if (req.pageSize === undefined) {
        const { portfolios, totalCount } = await s.portfolios.list(caller, filter, v.optionalKey('decryption_key', req.decryptionKey));
        return { portfolios: portfolios.map(portfolioMsg), nextPageToken: '', hasPreviousPage: false, itemPageTokens: [], ...(totalCount !== undefined ? { totalCount } : {}) };
      }
      const request = { size: req.pageSize, token: req.pageToken, before: req.pageBefore, order: req.pageOrder };
      const page = await s.portfolios.page(caller, filter, request, v.optionalKey('decryption_key', req.decryptionKey));
      return {
        portfolios: page.portfolios.map(portfolioMsg),
        nextPageToken: page.nextPageToken,
        totalCount: page.totalCount,
        hasPreviousPage: page.hasPreviousPage,
        itemPageTokens: page.itemPageTokens,
      };
    },
    async getPortfolioPositions(req, ctx) {
      const { positions: list, totalCount } = await s.portfolios.positions(requireAccount(ctx.caller), req.portfolioIdentifier);
      return {
        ...(totalCount !== undefined ? { totalCount } : {}),
        positions: list.map((p) => ({
          positionId: p.positionId,
          positionAmount: p.amount,
          positionCurrencyCode: p.currencyCode,
          positionDays: p.days,
          assetIdentifier: p.assetIdentifier,
          assetName: p.assetName,
          issuerIdentifier: p.issuerIdentifier,
          issuerName: p.issuerName,
          ...(p.startDate ? { positionStartDate: p.startDate } : {}),
        })),
      };
    },
    async addPortfolio(req, ctx) {
      const r = await s.portfolios.add(requireAccount(ctx.caller), req.investorIdentifier, req.portfolioIdentifier, req.portfolioIdentifierChanged);
      const message = r.outcome === 'added' ? MSG.portfolioAdded(r.id) : r.outcome === 'exists' ? MSG.portfolioExists(r.id) : MSG.portfolioChanged;
      return { message, id: r.id };
    },
    async addPositionToPortfolio(req, ctx) {
      const id = await s.portfolios.addPosition(requireAccount(ctx.caller), req.investorIdentifier, req.portfolioIdentifier, req.positionId);
      return { message: MSG.positionAddedToPortfolio, id };
    },
    async removePositionFromPortfolio(req, ctx) {
      const id = await s.portfolios.removePosition(requireAccount(ctx.caller), req.investorIdentifier, req.portfolioIdentifier, req.positionId);
      return { message: MSG.positionRemovedFromPortfolio, id };
    },
    async removePortfolio(req, ctx) {
      const id = await s.portfolios.remove(requireAccount(ctx.caller), req.investorIdentifier, req.portfolioIdentifier);
      return { message: MSG.portfolioRemoved, id };
    },
  };
}

function portfolioMsg(p: PortfolioView): Portfolio {
  return {
    portfolioId: p.id,
    portfolioIdentifier: p.portfolioIdentifier,
    investorIdentifier: p.investorIdentifier,
    investorName: p.investorName,
    assets: p.assets,
    masked: p.masked,
    positionIds: p.positionIds,
  };
}
