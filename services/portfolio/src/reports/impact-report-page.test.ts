import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Visibility } from '@green-impact/proto/greenimpact/common/v1/common';
import type { RenderImpactReportPageRequest } from '@green-impact/proto/greenimpact/portfolio/v1/portfolio';
import { formatFigure } from '@green-impact/shared/figures';
import { skipReason, testDatabases } from '@green-impact/testing/shared/databases';
import { FRAMEWORK, loadFixture } from '@green-impact/testing/portfolio/fixture';
import { rejectsWith, startPortfolioHarness, type PortfolioHarness } from '@green-impact/testing/portfolio/harness';

/**
 * RenderImpactReportPage over real gRPC: the portfolio service renders the impact report page the gateway
 * serves (report-routes.ts) from its stored records, for a portfolio or an investor of the caller; the
 * "Download PDF" link only when pdf_url is given; the request's rules refused as INVALID_ARGUMENT, another
 * account's report as NOT_FOUND.
 */
for (const db of testDatabases) {
  describe(`RenderImpactReportPage on ${db.name}`, { skip: await skipReason(db) }, () => {
    let h: PortfolioHarness;
    const YEAR = 2024;
    const me = () => ({ caller: h.investor });
    const render = (req: Partial<RenderImpactReportPageRequest>, caller = h.investor) =>
      h.portfolio.renderImpactReportPage({ portfolioIdentifier: '', investorIdentifier: '', reportingYear: YEAR, pdfUrl: '', ...req }, { caller });

    before(async () => {
      h = await startPortfolioHarness(db);
      await loadFixture(h.taxonomy, h.issuer);
      await h.portfolio.addAsset(
        { assetIdentifier: 'GB-R', assetName: 'Green Bond', issuerIdentifier: 'ISSUER-A', frameworkIdentifier: FRAMEWORK, assetCurrencyCode: 'SEK', assetValueOutstanding: 10_000_000, assetVisibility: Visibility.VISIBILITY_PUBLIC },
        { caller: h.issuer },
      );
      await h.portfolio.addInvestor({ investorIdentifier: 'inv-r', investorName: 'Report Fund', investorCurrencyCode: 'EUR' }, me());
      await h.portfolio.addPortfolio({ investorIdentifier: 'inv-r', portfolioIdentifier: 'pf-r' }, me());
      const { id } = await h.portfolio.addPosition({ investorIdentifier: 'inv-r', assetIdentifier: 'GB-R', positionAmount: 115_000, positionCurrencyCode: 'SEK', reportingYear: YEAR }, me());
      await h.portfolio.addPositionToPortfolio({ investorIdentifier: 'inv-r', portfolioIdentifier: 'pf-r', positionId: id! }, me());
    });
    after(async () => {
      await h?.stop();
    });

    it("renders a portfolio's and an investor's page from the stored records, with their totals", async () => {
      const totals = (await h.portfolio.getPortfolioImpacts({ portfolioIdentifier: 'pf-r', reportingYear: YEAR, computeMissing: false }, me())).totals;
      assert.ok(totals.length > 0);
      for (const [req, title] of [[{ portfolioIdentifier: 'pf-r' }, 'portfolio pf-r'], [{ investorIdentifier: 'inv-r' }, 'investor inv-r']] as const) {
        const page = await render(req);
        assert.equal(page.contentType, 'text/html; charset=utf-8');
        const text = Buffer.from(page.content).toString('utf8');
        assert.ok(text.startsWith('<!doctype html>'));
        assert.match(text, new RegExp(`<title>Impact report ${YEAR}: ${title}</title>`));
        for (const t of totals) assert.ok(text.includes(`<td class="n">${formatFigure(t.value, 2)}</td>`), `${t.indicatorName}'s total`);
        assert.ok(!text.includes('Download PDF'), 'no PDF link unless asked');
      }
      const linked = Buffer.from((await render({ portfolioIdentifier: 'pf-r', pdfUrl: `/reports/portfolios/pf-r/${YEAR}.pdf` })).content).toString('utf8');
      assert.ok(linked.includes(`<p class="pdf-download"><a href="/reports/portfolios/pf-r/${YEAR}.pdf">Download PDF</a></p>`));
    });

    it('refuses a request naming no report or two, a year out of range, and another account', async () => {
      const exactlyOne = 'An impact report page is of a portfolio (portfolio_identifier) or of an investor (investor_identifier): give exactly one.';
      await rejectsWith(render({}), 'INVALID_ARGUMENT', exactlyOne);
      await rejectsWith(render({ portfolioIdentifier: 'pf-r', investorIdentifier: 'inv-r' }), 'INVALID_ARGUMENT', exactlyOne);
      await rejectsWith(render({ portfolioIdentifier: 'pf-r', reportingYear: 1800 }), 'INVALID_ARGUMENT', 'The year of a report is between 1900 and 2200.');
      await rejectsWith(render({ portfolioIdentifier: 'pf-r' }, h.issuer), 'NOT_FOUND');
      await rejectsWith(render({ investorIdentifier: 'inv-r' }, h.issuer), 'NOT_FOUND');
    });
  });
}
