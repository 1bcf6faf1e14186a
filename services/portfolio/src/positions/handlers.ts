import * as v from '../validation.js';
import type { PortfolioServiceService, Position } from '@green-impact/proto/greenimpact/portfolio/v1/portfolio';
import { requireAccount } from '../caller.js';
import type { UnaryHandlers } from '@green-impact/shared/grpc/server';
import { MSG } from '../messages.js';
import type { PortfolioStores } from '../stores.js';
import type { PositionView } from './position-reads.js';

type Handlers = UnaryHandlers<typeof PortfolioServiceService>;

/** §4.10 positions. */
export function positionHandlers(s: PortfolioStores): Pick<Handlers, 'getPositions' | 'addPosition' | 'removePosition' | 'getPositionsByIds'> {
  return {
    async getPositions(req, ctx) {
      const caller = requireAccount(ctx.caller);
      const filter = {
        investorIdentifier: v.optionalText('investor_identifier', req.investorIdentifier),
        assetIdentifier: v.optionalText('asset_identifier', req.assetIdentifier),
        issuerIdentifier: v.optionalText('issuer_identifier', req.issuerIdentifier),
        investorsAllowed: req.investorFilterActive ? req.investorIdentifiersAllowed : undefined,
      };
      if (req.pageSize === undefined) {
        // No page asked for: the whole list up to MAX_LIST_ITEMS (/v1/call's getPositions); total_count says it was cut.
        const { positions, totalCount } = await s.positions.list(caller, filter, v.optionalKey('decryption_key', req.decryptionKey));
        return { positions: positions.map(positionMsg), nextPageToken: '', hasPreviousPage: false, itemPageTokens: [], ...(totalCount !== undefined ? { totalCount } : {}) };
      }
      const request = { size: req.pageSize, token: req.pageToken, before: req.pageBefore, order: req.pageOrder };
      const page = await s.positions.page(caller, filter, request, v.optionalKey('decryption_key', req.decryptionKey));
      return {
        positions: page.positions.map(positionMsg),
        nextPageToken: page.nextPageToken,
        totalCount: page.totalCount,
        hasPreviousPage: page.hasPreviousPage,
        itemPageTokens: page.itemPageTokens,
      };
    },
    async addPosition(req, ctx) {
      const r = await s.positions.add(requireAccount(ctx.caller), {
        investorIdentifier: req.investorIdentifier,
        assetIdentifier: req.assetIdentifier,
        amount: req.positionAmount,
        currencyCode: req.positionCurrencyCode,
        reportingYear: req.reportingYear,
        days: req.positionDays,
        startDate: req.positionStartDate,
      });
      return { message: MSG.positionAdded(r.id), id: r.id, impacts: r.impacts };
    },
    async removePosition(req, ctx) {
      const id = await s.positions.remove(requireAccount(ctx.caller), req.investorIdentifier, req.positionId);
      return { message: MSG.positionRemoved, id };
    },
    async getPositionsByIds(req, ctx) {
      const list = await s.positions.byIds(requireAccount(ctx.caller), req.positionIds, v.optionalKey('decryption_key', req.decryptionKey));
      return { positions: list.map(positionMsg) };
    },
  };
}

function positionMsg(p: PositionView): Position {
  return {
    positionId: p.id,
    positionAmount: p.amount,
    positionCurrencyCode: p.currencyCode,
    positionDays: p.days,
    ...(p.startDate ? { positionStartDate: p.startDate } : {}),
    investorIdentifier: p.investorIdentifier,
    investorName: p.investorName,
    assetIdentifier: p.assetIdentifier,
    assetName: p.assetName,
    issuerIdentifier: p.issuerIdentifier,
    issuerName: p.issuerName,
    masked: p.masked,
    impactYears: p.impactYears,
  };
}
