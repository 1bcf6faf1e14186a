import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { launchChromium, skipWithoutChromium } from '@green-impact/testing/gateway/chromium';
import { jsonHeaders, startTestGateway, type TestGateway } from '@green-impact/testing/gateway/real-gateway';

/**
 * No table cell of an impact report page wraps a number (issue 46): the page of a portfolio with long
 * figures (amounts of hundreds of billions, an FX rate of 1/11.5 and a τ of 200/366, which the page printed
 * with 16 digits before), served by the gateway in front of the real portfolio and taxonomy services,
 * opened in Debian's Chromium at a laptop's width. Every numeric cell keeps its text on one line: the text's
 * line boxes (Range.getClientRects) all share one top. Without Chromium the test skips locally and fails
 * under CI (chromium.ts).
 */

const ESG = 'SVC.ESG.Credits';
const YEAR = 2024;
/**
 * In the page: each table cell's text, how many line boxes it takes (distinct tops of its text's rects) and
 * its white-space; the test keeps those that hold a number, whatever their class.
 */
const CELLS = `[...document.querySelectorAll('td')].map((td) => {
  const range = document.createRange();
  range.selectNodeContents(td);
  const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
  return { text: td.textContent, lines: tops.size, whiteSpace: getComputedStyle(td).whiteSpace };
})`;
/** A figure, a ratio or a count, with its currency code after it or not ("184 / 366" too). */
const NUMBER = /^-?\d[\d\s.,\u202f\u00a0/]*(?:[A-Z]{3})?$/;
let t: TestGateway;
let browser: Browser;

const call = async (key: string, operation: string, parameters: Record<string, unknown>) => {
  const res = await fetch(`${t.baseUrl}/v1/call`, { method: 'POST', headers: jsonHeaders(key), body: JSON.stringify({ solution: ESG, operation, parameters }) });
  const body = (await res.json()) as Record<string, unknown>;
  assert.equal(res.status, 200, `${operation}: ${JSON.stringify(body)}`);
  return body;
};
const idOf = (body: Record<string, unknown>) => Number(/(\d+)\.$/.exec(String(body['message']))?.[1]);

before(async () => {
  if (skipWithoutChromium) return;
  t = await startTestGateway({}, { portfolio: true });
  const op = (operation: string, parameters: Record<string, unknown>) => call(t.operatorKey, operation, { reporting_year: YEAR, language_code: 'en', ...parameters });
  const category = idOf(await op('addCategory', { category_name: 'Renewable energy' }));
  const subCategory = idOf(await op('addSubCategory', { sub_category_name: 'Solar power', category_id: category }));
  const unit = idOf(await op('addUnit', { unit_name: 'MWh' }));
  const superIndicator = idOf(await op('addSuperIndicator', { super_indicator_name: 'Energy', category_id: category }));
  const indicator = idOf(await op('addIndicator', { indicator_name: 'Energy generated', super_indicator_id: superIndicator, unit_id: unit }));
  await call(t.operatorKey, 'addCurrency', { currency_code: 'SEK' });
  await call(t.operatorKey, 'addFXrate', { currency_code_numerator: 'SEK', currency_code_denominator: 'EUR', currency_code_quota: 11.5, reporting_year: YEAR });

  const user = (operation: string, parameters: Record<string, unknown>) => call(t.userKey, operation, parameters);
  await user('addFramework', { framework_identifier: 'FW-LONG', framework_name: 'Long figures', framework_currency_code: 'EUR' });
  await user('addYearSpecificsToFramework', { framework_identifier: 'FW-LONG', value_outstanding: 987_654_321_098.76, allocated_amount: 876_543_210_987.65, value_outstanding_framework: 'no', reporting_year: YEAR });
  await user('addCategoryIndicatorToFramework', { framework_identifier: 'FW-LONG', sub_category_id: subCategory, sub_category_volume: 765_432_109_876.54, indicator_id: indicator, indicator_value: 123_456_789.125, reporting_year: YEAR });
  await user('addAsset', { asset_identifier: 'AS-LONG', asset_name: 'Long bond', issuer_identifier: 'ISS', issuer_name: 'Issuer', framework_identifier: 'FW-LONG', asset_currency_code: 'SEK', asset_value_outstanding: 9_876_543_210_987.6 });
  await user('addInvestor', { investor_identifier: 'INV-LONG', investor_name: 'Investor', investor_currency_code: 'SEK' });
  // 200 days of 2024 (a leap year) from 15 June to 31 December: τ = 200/366.
  const positionId = idOf(await user('addPosition', { investor_identifier: 'INV-LONG', asset_identifier: 'AS-LONG', position_amount: 98_765_432_109.87, position_currency_code: 'SEK', position_start_date: '2024-06-15', position_days: 200, reporting_year: YEAR }));
  assert.ok(positionId > 0);
  await user('addPortfolio', { investor_identifier: 'INV-LONG', portfolio_identifier: 'PF-LONG' });
  await user('addPositionToPortfolio', { investor_identifier: 'INV-LONG', portfolio_identifier: 'PF-LONG', position_id: positionId });
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await t?.stop();
});

test('no numeric cell of the impact report page wraps', { skip: skipWithoutChromium, timeout: 120_000 }, async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, extraHTTPHeaders: { 'x-api-key': t.userKey } });
  try {
    const page = await context.newPage();
    const res = await page.goto(`${t.baseUrl}/reports/portfolios/PF-LONG/${YEAR}.html`);
    assert.equal(res?.status(), 200);
    const cells = (await page.evaluate(CELLS)) as { text: string; lines: number; whiteSpace: string }[];
    const numeric = cells.filter((c) => NUMBER.test(c.text));
    // Totals, the volume total, the position's amount, FX rate, P_f, D, share, days, τ and the record's four figures.
    assert.ok(numeric.length >= 13, `numeric cells: ${JSON.stringify(cells)}`);
    for (const c of numeric) {
      assert.equal(c.lines, 1, `${JSON.stringify(c.text)} is on ${c.lines} lines`);
      assert.equal(c.whiteSpace, 'nowrap', `${JSON.stringify(c.text)}`);
    }
    assert.ok(numeric.some((c) => c.text === '0.086957'), `the FX rate 1/11.5 to 6 decimals among ${JSON.stringify(numeric.map((c) => c.text))}`);
    assert.ok(numeric.some((c) => c.text === '0.546448'), `τ = 200/366 to 6 decimals among ${JSON.stringify(numeric.map((c) => c.text))}`);
    assert.ok(numeric.some((c) => c.text === '98\u202f765\u202f432\u202f109.87\u00a0SEK'), 'the amount held, grouped, its currency after it');
  } finally {
    await context.close();
  }
});
