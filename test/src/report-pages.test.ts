import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { RunningSystem } from '@green-impact/embedded/system';
import { DocumentLinks } from '@green-impact/gateway/document-links';
import { skipReason, testDatabases } from '@green-impact/testing/shared/databases';
import { ESG, seedAccount, seedReferenceData, YEAR, type AccountData } from './support/dataset.js';
import { createUserAccount, graphqlClient, ok, refused, startTestSystem } from './support/system.js';
import { conformingV1Client } from './support/answer-conformance.js';

const OPERATOR = 'report-pages-operator-key';
const SECRET = 'q3Z8vYt0LwVbN6xKcR1mJ5hUe9sPaD2gFi7oTnBy4Ak'; // random, made once for this test

/**
 * Who opens an impact report page (report-routes.ts), through real HTTP on the whole system, on PGlite and
 * PostgreSQL: the owner's key and the signed links getHtml*ImpactReport and GraphQL hand out open it; no
 * key is 401, another account's key 404; an altered link, or a link moved to another report, is a 404
 * page saying nothing; an expired one 403; another account cannot get a link to the owner's report.
 */
for (const db of testDatabases) {
  describe(`impact report pages on ${db.name}`, { skip: await skipReason(db) }, () => {
    let system: RunningSystem;
    let owner: string;
    let stranger: string;
    let a: AccountData;
    const get = (url: string, key?: string) => fetch(url.startsWith('http') ? url : `${system.gatewayUrl}${url}`, { headers: key ? { 'x-api-key': key } : {} });
    const portfolioPath = () => `/reports/portfolios/${a.portfolio}/${YEAR}.html`;

    before(async () => {
      system = await startTestSystem(db, OPERATOR, { gatewayDocumentLinks: { DOCUMENT_LINK_SECRET: SECRET } });
      owner = await createUserAccount(system.gatewayUrl, OPERATOR, 'Report Owner');
      stranger = await createUserAccount(system.gatewayUrl, OPERATOR, 'Stranger');
      a = await seedAccount(conformingV1Client(system.gatewayUrl, owner), 'R', await seedReferenceData(conformingV1Client(system.gatewayUrl, OPERATOR)));
    });
    after(async () => system?.stop());

    it('the key opens the page; no key is 401, a stranger 404', async () => {
      const page = await get(portfolioPath(), owner);
      assert.equal(page.status, 200);
      assert.equal(page.headers.get('content-type'), 'text/html; charset=utf-8');
      assert.equal(page.headers.get('cache-control'), 'private, no-cache');
      assert.match(await page.text(), new RegExp(`<title>Impact report ${YEAR}: portfolio ${a.portfolio}</title>`));
      assert.equal((await get(portfolioPath())).status, 401);
      assert.equal((await get(portfolioPath(), stranger)).status, 404);
      const investor = await get(`/reports/investors/${a.investor}/${YEAR}.html`, owner);
      assert.equal(investor.status, 200);
      assert.match(await investor.text(), /<h2>Every figure and its inputs<\/h2>/);
      assert.equal((await get(`/reports/portfolios/${a.portfolio}/1800.html`, owner)).status, 400);
    });

    it('the links of both faces open without a key, only for their report, until they expire', async () => {
      const v1 = await ok(conformingV1Client(system.gatewayUrl, owner)(ESG, 'getHtmlPortfolioImpactReport', { portfolio_identifier: a.portfolio, reporting_year: YEAR }), 'link');
      const link = v1['Portfolio impact report'] as string;
      assert.match(link, new RegExp(`^${system.gatewayUrl}${portfolioPath()}\\?acct=[^&]+&exp=\\d+&sig=[A-Za-z0-9_-]{43}$`));
      const opened = await get(link);
      assert.equal(opened.status, 200);
      assert.equal(opened.headers.get('cache-control'), 'private, no-store');
      assert.match(await opened.text(), /<h2>Totals per indicator<\/h2>/);

      const gql = await graphqlClient(system.gatewayUrl, owner)('query($i: String!) { investorImpactReportUrl(investorIdentifier: $i, year: 2024) }', { i: a.investor });
      assert.equal(gql.errors, undefined, JSON.stringify(gql.errors));
      assert.equal((await get(gql.data.investorImpactReportUrl)).status, 200);

      // Altered, or carried to another report or year: the 404 page of an unknown report.
      const url = new URL(link);
      const altered = new URL(url);
      altered.searchParams.set('acct', `${url.searchParams.get('acct')}x`);
      const moved = new URL(link.replace(`/${a.portfolio}/`, `/${a.portfolio}X/`));
      const otherYear = new URL(link.replace(`/${YEAR}.html`, `/${YEAR - 1}.html`));
      for (const bad of [altered, moved, otherYear]) {
        const res = await get(bad.toString());
        assert.equal(res.status, 404, bad.toString());
        assert.match(res.headers.get('content-type') ?? '', /^text\/html/);
        assert.match(await res.text(), /No such portfolio report\./);
      }
      const past = new DocumentLinks({ secret: Buffer.from(SECRET), previousSecret: undefined, ttlSeconds: 60, generated: false }, () => Date.now() - 86_400_000);
      const expired = await get(past.signReport(`${system.gatewayUrl}${portfolioPath()}`, ['portfolio', a.portfolio, YEAR], url.searchParams.get('acct')!));
      assert.equal(expired.status, 403);
      assert.match(await expired.text(), /This link has expired/);
    });

    it("another account gets no link to the owner's report, in the service's words", async () => {
      await refused(conformingV1Client(system.gatewayUrl, stranger)(ESG, 'getHtmlPortfolioImpactReport', { portfolio_identifier: a.portfolio, reporting_year: YEAR }), 404, 'NOT_FOUND');
      await refused(conformingV1Client(system.gatewayUrl, owner)(ESG, 'getHtmlInvestorImpactReport', { investor_identifier: a.investor }), 400, 'INVALID_ARGUMENT', 'reporting_year is required.');
    });
  });
}
