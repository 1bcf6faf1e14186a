import type { ImpactTotal, PortfolioServiceService, VolumeTotal } from '@green-impact/proto/greenimpact/portfolio/v1/portfolio';
import { requireAccount } from '../caller.js';
import type { StreamHandlers, UnaryHandlers } from '@green-impact/shared/grpc/server';
import { MSG } from '../messages.js';
import type { PortfolioStores } from '../stores.js';
import type { ImpactSummary } from './impact-service.js';

type Handlers = UnaryHandlers<typeof PortfolioServiceService>;

/** Impacts (not spec operations): compute, and read per position, portfolio and investor. */
export function impactHandlers(
  s: PortfolioStores,
): Pick<Handlers, 'computePositionImpacts' | 'getPositionImpacts' | 'getPortfolioImpacts' | 'getInvestorImpacts'> {
  return {
    async computePositionImpacts(req, ctx) {
      const impacts = await s.impacts.compute(requireAccount(ctx.caller), req.positionId, req.reportingYear);
      return { message: MSG.impactsComputed(req.positionId, req.reportingYear, impacts.length), id: req.positionId, impacts };
    },
    async getPositionImpacts(req, ctx) {
      return { impacts: await s.impacts.ofPosition(requireAccount(ctx.caller), req.positionId, req.reportingYear, req.computeMissing) };
    },
    async getPortfolioImpacts(req, ctx) {
      const { portfolio, summary } = await s.impacts.ofPortfolio(requireAccount(ctx.caller), req.portfolioIdentifier, req.reportingYear, {
        computeMissing: req.computeMissing,
        omitRecords: req.omitRecords,
      });
      return {
        portfolioIdentifier: portfolio.portfolioIdentifier,
        investorIdentifier: portfolio.investorIdentifier,
        reportingYear: req.reportingYear,
        ...summaryMsg(summary),
      };
    },
    async getInvestorImpacts(req, ctx) {
      const { investor, summary } = await s.impacts.ofInvestor(requireAccount(ctx.caller), req.investorIdentifier, req.reportingYear, {
        computeMissing: req.computeMissing,
        omitRecords: req.omitRecords,
      });
      return { investorIdentifier: investor.investorIdentifier, reportingYear: req.reportingYear, ...summaryMsg(summary) };
    },
  };
}

/** The records of an investor's or a portfolio's positions, streamed a page per message. */
export function impactStreamHandlers(s: PortfolioStores): Pick<StreamHandlers<typeof PortfolioServiceService>, 'streamImpactRecords'> {
  return {
    streamImpactRecords: (req, ctx) => s.impacts.recordPages(requireAccount(ctx.caller), req),
  };
}

function summaryMsg(s: ImpactSummary): {
  totals: ImpactTotal[];
  volumeTotals: VolumeTotal[];
  impacts: ImpactSummary['records'];
  positionIdsWithoutImpacts: number[];
  stalePositions: number;
} {
  return {
    stalePositions: s.stalePositions,
    totals: s.totals,
    volumeTotals: s.volumeTotals,
    impacts: s.records,
    positionIdsWithoutImpacts: s.positionIdsWithoutImpacts,
  };
}
