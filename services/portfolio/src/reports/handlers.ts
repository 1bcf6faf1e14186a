import type { PortfolioServiceService } from '@green-impact/proto/greenimpact/portfolio/v1/portfolio';
import { InvalidArgumentError } from '@green-impact/shared/errors';
import type { UnaryHandlers } from '@green-impact/shared/grpc/server';
import { requireAccount } from '../caller.js';
import type { PortfolioStores } from '../stores.js';
import { impactReportPage, type ImpactReport } from './impact-report-page.js';

type Handlers = UnaryHandlers<typeof PortfolioServiceService>;

const HTML = 'text/html; charset=utf-8';

/** Pages the gateway serves as they are: the impact report of a portfolio or of an investor. */
export function reportHandlers(s: PortfolioStores): Pick<Handlers, 'renderImpactReportPage'> {
  return {
    async renderImpactReportPage(req, ctx) {
      const account = requireAccount(ctx.caller);
      if ((req.portfolioIdentifier === '') === (req.investorIdentifier === '')) {
        throw new InvalidArgumentError('An impact report page is of a portfolio (portfolio_identifier) or of an investor (investor_identifier): give exactly one.');
      }
      if (req.reportingYear < 1900 || req.reportingYear > 2200) throw new InvalidArgumentError('The year of a report is between 1900 and 2200.');
      const options = { computeMissing: false, omitRecords: false };
      const [kind, identifier, read] = req.portfolioIdentifier !== ''
        ? (['portfolio', req.portfolioIdentifier, await s.impacts.ofPortfolio(account, req.portfolioIdentifier, req.reportingYear, options)] as const)
        : (['investor', req.investorIdentifier, await s.impacts.ofInvestor(account, req.investorIdentifier, req.reportingYear, options)] as const);
      const investorIdentifier = 'portfolio' in read ? read.portfolio.investorIdentifier : read.investor.investorIdentifier;
      const report: ImpactReport = {
        kind,
        identifier,
        investorIdentifier,
        year: req.reportingYear,
        totals: read.summary.totals,
        volumeTotals: read.summary.volumeTotals,
        records: read.summary.records,
        positionsWithoutImpacts: read.summary.positionIdsWithoutImpacts,
        stalePositions: read.summary.stalePositions,
      };
      return { content: Buffer.from(impactReportPage(report, req.pdfUrl || undefined), 'utf8'), contentType: HTML };
    },
  };
}
