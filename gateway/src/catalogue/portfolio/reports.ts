import type { Caller } from '@green-impact/shared/caller';
import type { DocumentLinks } from '../../document-links.js';
import { reportPageUrl, reportSubject } from '../../report-routes.js';
import { declare, type GraphqlFace } from '../operation.js';
import { ESG } from '../renders.js';
import { investorIdentifier, portfolioIdentifier, reportingYear } from './fields.js';

/**
 * Links to impact report pages (report-routes.ts). NOT SPEC OPERATIONS: named after getHtml*FromBlockchain
 * and answered like them, `{"<link text>": "<signed link>"}` on /v1/call and the link itself on GraphQL.
 * The totals are read first (without their records), so a link is handed out only for a portfolio or an
 * investor the caller has, in the service's words otherwise; the link reads as the caller's account.
 */

/** The signed link of a report for the caller's account. */
function reportLink(links: DocumentLinks, baseUrl: string, kind: 'portfolio' | 'investor', identifier: string, year: number, caller: Caller): string {
  return links.signReport(reportPageUrl(baseUrl, kind, identifier, year), reportSubject(kind, identifier, year), caller.accountId);
}

const SUMMARY = "report of a year as a page (totals, charts, every position's attribution and inputs): it opens in a browser without a key until it expires.";

const getHtmlPortfolioImpactReport = declare({
  solution: ESG,
  operation: 'getHtmlPortfolioImpactReport',
  summary: `A signed link to a portfolio's impact ${SUMMARY}`,
  input: { portfolioIdentifier, year: reportingYear },
  service: 'portfolio',
  method: 'getPortfolioImpacts',
  request: (i) => ({ portfolioIdentifier: i.portfolioIdentifier, reportingYear: i.year, computeMissing: false, omitRecords: true }),
  v1: (_res, i, ctx) => ({ 'Portfolio impact report': reportLink(ctx.documentLinks, ctx.http.baseUrl, 'portfolio', i.portfolioIdentifier, i.year, ctx.caller!) }),
  graphql: linkField('portfolioImpactReportUrl', 'portfolio', (i: { portfolioIdentifier: string; year: number }) => i.portfolioIdentifier),
});

const getHtmlInvestorImpactReport = declare({
  solution: ESG,
  operation: 'getHtmlInvestorImpactReport',
  summary: `A signed link to an investor's impact ${SUMMARY}`,
  input: { investorIdentifier, year: reportingYear },
  service: 'portfolio',
  method: 'getInvestorImpacts',
  request: (i) => ({ investorIdentifier: i.investorIdentifier, reportingYear: i.year, computeMissing: false, omitRecords: true }),
  v1: (_res, i, ctx) => ({ 'Investor impact report': reportLink(ctx.documentLinks, ctx.http.baseUrl, 'investor', i.investorIdentifier, i.year, ctx.caller!) }),
  graphql: linkField('investorImpactReportUrl', 'investor', (i: { investorIdentifier: string; year: number }) => i.investorIdentifier),
});

/** The GraphQL field: the link itself, once the totals read says the report is the caller's. */
function linkField<I extends { year: number }>(field: string, kind: 'portfolio' | 'investor', identifierOf: (i: I) => string): GraphqlFace<I, unknown> {
  return {
    root: 'Query',
    field,
    nested: false,
    returns: 'String!',
    render: async (call, i, ctx) => {
      await call();
      return reportLink(ctx.documentLinks, ctx.baseUrl, kind, identifierOf(i), i.year, (await ctx.auth()).caller);
    },
  };
}

export const reportOperations = [getHtmlPortfolioImpactReport, getHtmlInvestorImpactReport];
