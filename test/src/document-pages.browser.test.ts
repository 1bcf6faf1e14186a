import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { RunningSystem } from '@green-impact/embedded/system';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, skipWithoutChromium } from '@green-impact/testing/gateway/chromium';
import { accessibilityViolations, screenshot } from '@green-impact/testing/gateway/page-checks';
import { testDatabases } from '@green-impact/testing/shared/databases';
import { ESG, idOf, seedAccount, seedReferenceData, YEAR, type AccountData } from './support/dataset.js';
import { writeHtmlDocuments } from './support/document-links.js';
import { createUserAccount, graphqlClient, ok, startTestSystem } from './support/system.js';
import { conformingV1Client } from './support/answer-conformance.js';

const OPERATOR = 'document-pages-operator-key';

/**
 * The written documents as people see them, in Debian's Chromium (playwright-core) on the whole embedded
 * system: the framework and position-impacts pages opened from their signed links show how they are
 * anchored (network, transaction and block linked to the explorer, the content hash, the verification),
 * pass axe-core's WCAG 2.1 AA checks, and leave a screenshot under test-results/screenshots/. Without
 * Chromium the test skips locally and fails under CI (chromium.ts).
 */
describe('document pages in Chromium', { skip: skipWithoutChromium }, () => {
  let system: RunningSystem;
  let browser: Browser;
  let a: AccountData;
  const links = { framework: '', impacts: '', portfolioReport: '', investorReport: '' };
  let totals: { indicator_name: string; unit_name: string; value: number }[] = [];
  const txHashes = { framework: '', impacts: '' };

  before(async () => {
    system = await startTestSystem(testDatabases[0]!, OPERATOR);
    const owner = await createUserAccount(system.gatewayUrl, OPERATOR, 'Page Owner');
    const esg = conformingV1Client(system.gatewayUrl, owner);
    const op = conformingV1Client(system.gatewayUrl, OPERATOR);
    const tax = await seedReferenceData(op);
    a = await seedAccount(esg, 'P', tax);
    // A second category and a second unit, with SDGs and an EU objective, so each chart has more than one bar.
    const id = async (operation: string, params: Record<string, unknown>) => idOf((await ok(op(ESG, operation, { reporting_year: YEAR, language_code: 'en', ...params }), operation)).message);
    const transport = await id('addCategory', { category_name: 'Clean transportation' });
    const rail = await id('addSubCategory', { sub_category_name: 'Electric rail', category_id: transport });
    const tonnes = await id('addUnit', { unit_name: 'tCO2e' });
    const ghg = await id('addIndicator', { indicator_name: 'GHG emissions avoided', super_indicator_id: await id('addSuperIndicator', { super_indicator_name: 'Climate', category_id: transport }), unit_id: tonnes });
    await ok(op(ESG, 'addGoalObjectiveToSubCategory', { sub_category_id: tax.subCategory, reporting_year: YEAR, sdg_id: 7, eu_objective_id: 1 }), 'goals');
    await ok(op(ESG, 'addGoalObjectiveToSubCategory', { sub_category_id: rail, reporting_year: YEAR, sdg_id: 11, eu_objective_id: 1 }), 'goals');
    for (const [sub, volume, indicator, value] of [[rail, 200_000, ghg, 50], [tax.subCategory, 500_000, ghg, 30]] as const) {
      await ok(esg(ESG, 'addCategoryIndicatorToFramework', { framework_identifier: a.framework, sub_category_id: sub, sub_category_volume: volume, indicator_id: indicator, indicator_value: value, reporting_year: YEAR }), 'row');
    }
    const written = await writeHtmlDocuments(esg, a);
    Object.assign(links, written.links);
    Object.assign(txHashes, written.txHashes);
    // The report links, one from each face.
    links.portfolioReport = (await ok(esg(ESG, 'getHtmlPortfolioImpactReport', { portfolio_identifier: a.portfolio, reporting_year: YEAR }), 'report link'))['Portfolio impact report'];
    const gql = await graphqlClient(system.gatewayUrl, owner)('query($i: String!) { investorImpactReportUrl(investorIdentifier: $i, year: 2024) }', { i: a.investor });
    assert.equal(gql.errors, undefined, JSON.stringify(gql.errors));
    links.investorReport = gql.data.investorImpactReportUrl;
    totals = (await ok(esg(ESG, 'getPortfolioImpacts', { portfolio_identifier: a.portfolio, reporting_year: YEAR, include_records: 'no' }), 'totals')).totals;
    assert.ok(totals.length > 0, 'the portfolio has impacts');
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await system?.stop();
  });

  /** Opens a link in a fresh context (no key, nothing remembered), as someone clicking it in an e-mail. */
  async function open(url: string): Promise<{ page: Page; close: () => Promise<void> }> {
    // bypassCSP for axe-core only (page-checks.ts); the CSP the page is served with is checked here.
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, bypassCSP: true });
    const page = await context.newPage();
    const answer = await page.goto(url);
    assert.equal(answer?.status(), 200, url);
    assert.match((await answer!.allHeaders())['content-security-policy'] ?? '', /^default-src 'none'; style-src 'unsafe-inline'; img-src data:; sandbox$/);
    return { page, close: () => context.close() };
  }

  /** The anchoring panel's facts as the browser shows them. */
  async function anchoring(page: Page): Promise<Record<string, { text: string; href: string | null }>> {
    const aside = page.getByRole('complementary', { name: 'Anchored on the blockchain' });
    await aside.waitFor({ timeout: 10_000 });
    const facts: Record<string, { text: string; href: string | null }> = {};
    for (const item of await aside.locator('dl > div').all()) {
      const label = (await item.locator('dt').innerText()).trim();
      const dd = item.locator('dd');
      facts[label] = { text: (await dd.innerText()).trim(), href: (await dd.locator('a').count()) ? await dd.locator('a').getAttribute('href') : null };
    }
    assert.match(await aside.locator('.anchoring-status').innerText(), /^Verified: the content's SHA-256 equals the hash anchored on sepolia/);
    return facts;
  }

  it('without a PDF renderer the pages offer no PDF, and a PDF asked for answers a clear 503', async () => {
    for (const link of Object.values(links)) {
      assert.doesNotMatch(await (await fetch(link)).text(), /Download PDF/);
      const url = new URL(link);
      url.pathname = url.pathname.replace(/\.html$/, '.pdf');
      const answer = await fetch(url);
      assert.equal(answer.status, 503, url.toString());
      assert.match(answer.headers.get('content-type') ?? '', /^text\/html/, 'a signed link is followed by a browser: its refusal is a page');
      assert.match(await answer.text(), /no PDF renderer is configured/);
    }
  });

  for (const kind of ['portfolioReport', 'investorReport'] as const) {
    it(`the ${kind === 'portfolioReport' ? 'portfolio' : 'investor'} impact report opens from its link: totals, charts of them, each position's inputs`, { timeout: 60_000 }, async () => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      try {
        const page = await context.newPage();
        const answer = await page.goto(links[kind]);
        assert.equal(answer?.status(), 200);
        // Gateway pages keep their own CSP (no inline script); axe runs through the DevTools protocol.
        assert.match((await answer!.allHeaders())['content-security-policy'] ?? '', /^default-src 'none'/);
        const subject = kind === 'portfolioReport' ? `portfolio ${a.portfolio}` : `investor ${a.investor}`;
        assert.equal(await page.title(), `Impact report ${YEAR}: ${subject}`);
        // The totals table says what getPortfolioImpacts says (the investor holds the portfolio's one position).
        const shownTotals = (await page.evaluate(TOTALS)) as [string, string, string][];
        assert.deepEqual(shownTotals.map(([name, unit, value]) => [name, unit, figure(value)]), totals.map((t) => [t.indicator_name, t.unit_name, Math.round(t.value * 100) / 100]));
        const shown = await charts(page);
        for (const chart of shown) assertBarsMatchTable(chart);
        for (const t of totals) assert.equal(bars(shown, `Impact per indicator (${t.unit_name})`)[t.indicator_name], Math.round(t.value * 100) / 100);
        // Every position's inputs: P_f, D, the share, τ and the FX rate.
        const head = (await page.locator('table', { hasText: 'Attribution of each position' }).locator('thead th').allInnerTexts()).map((h) => h.trim());
        for (const input of ['P_f', 'D', 'Share P_f ÷ D', 'τ', 'FX rate']) assert.ok(head.includes(input), `${input} among ${head.join(', ')}`);
        assert.deepEqual(await accessibilityViolations(page), [], 'axe-core finds nothing');
        assert.ok((await screenshot(page, `report-${kind}`)).length > 10_000);
        // Printed: A4 landscape, the same page.
        await page.emulateMedia({ media: 'print' });
        assert.deepEqual(pageBox(await page.pdf({ preferCSSPageSize: true })), [842, 595], 'A4 landscape in points');
      } finally {
        await context.close();
      }
    });
  }

  for (const kind of ['framework', 'impacts'] as const) {
    it(`the ${kind} page shows how it is anchored, links the explorer, and hashes to what it says`, { timeout: 60_000 }, async () => {
      const { page, close } = await open(links[kind]);
      try {
        const facts = await anchoring(page);
        assert.equal(facts['Network']?.text, 'sepolia');
        assert.equal(facts['Transaction']?.text, txHashes[kind]);
        assert.match(facts['Block']?.text ?? '', /^\d+$/);
        const sha256 = facts['Content SHA-256']?.text ?? '';
        assert.match(sha256, /^[0-9a-f]{64}$/);
        // The embedded network has no explorer of its own: the gateway's receipt page, which names the block.
        const explorer = await page.context().newPage();
        const receipt = await explorer.goto(new URL(facts['Transaction']!.href!, links[kind]).toString());
        assert.equal(receipt?.status(), 200);
        assert.match(await explorer.locator('main').innerText(), new RegExp(`Block\\s+${facts['Block']!.text}\\b`));
        // "The document alone": exactly the bytes whose hash the panel shows.
        const rawHref = await page.getByRole('link', { name: 'The document alone' }).getAttribute('href');
        const raw = await fetch(new URL(rawHref!, links[kind]));
        assert.equal(raw.status, 200);
        const { createHash } = await import('node:crypto');
        assert.equal(createHash('sha256').update(Buffer.from(await raw.arrayBuffer())).digest('hex'), sha256);

        const shown = await charts(page);
        assert.ok(shown.length >= 2, `charts on the page: ${shown.length}`);
        for (const chart of shown) {
          assert.equal(await page.getByRole('img', { name: chart.title }).count(), 1, `the chart "${chart.title}" is an image named by its title`);
          assertBarsMatchTable(chart);
        }
        if (kind === 'framework') assertFrameworkCharts(shown, await frameworkRows(page));
        else assertImpactCharts(shown, await page.evaluate(IMPACT_ROWS) as ImpactRow[]);
        assert.deepEqual(await accessibilityViolations(page), [], 'axe-core finds nothing');
        assert.ok((await screenshot(page, `document-${kind}`)).length > 10_000, 'a screenshot of the page');
        // Printed: the anchoring facts head the first page, A4 (the served style's @page), nothing hidden.
        await page.emulateMedia({ media: 'print' });
        const printed = await page.evaluate(`(() => { const a = document.querySelector('aside.anchoring'); const r = a.getBoundingClientRect(); return { top: r.top, shown: getComputedStyle(a).display !== 'none', first: document.body.firstElementChild === a }; })()`);
        assert.deepEqual(printed, { top: 0, shown: true, first: true });
        assert.deepEqual(pageBox(await page.pdf({ preferCSSPageSize: true })), [595, 842], 'A4 portrait in points');
        await screenshot(page, `document-${kind}-print`);
      } finally {
        await close();
      }
    });
  }
});

/** A chart as the browser has it: its bars (label, value, length, the figure written beside) and its table's rows. */
interface Chart {
  title: string;
  bars: { label: string; value: number; width: number; text: string }[];
  table: { label: string; value: number; text: string }[];
}

/** Read in the page (a string: this package compiles without the DOM's types). */
const CHARTS = `[...document.querySelectorAll('figure.chart')].map((f) => ({
  title: f.querySelector('figcaption').textContent,
  bars: [...f.querySelectorAll('svg g.bar')].map((g) => ({ label: g.dataset.label, value: Number(g.querySelector('rect').dataset.value), width: Number(g.querySelector('rect').getAttribute('width')), text: g.querySelectorAll('text')[1].textContent })),
  table: [...f.querySelectorAll('table.chart-data tbody tr')].map((tr) => ({ label: tr.querySelector('th').textContent, value: Number(tr.querySelector('td').dataset.value), text: tr.querySelector('td').textContent })),
}))`;

async function charts(page: Page): Promise<Chart[]> {
  return (await page.evaluate(CHARTS)) as Chart[];
}

/** The bars show the table's figures: same labels in the same order, lengths proportional to the values, the same text. */
function assertBarsMatchTable(chart: Chart): void {
  assert.deepEqual(chart.bars.map((b) => [b.label, b.value, b.text]), chart.table.map((r) => [r.label, r.value, r.text]), chart.title);
  const max = Math.max(...chart.table.map((r) => r.value));
  for (const b of chart.bars) assert.ok(Math.abs(b.width - (b.value / max) * 330) <= 0.01, `${chart.title}: ${b.label} is ${b.width} long for ${b.value} of ${max}`);
}

/** A figure as the documents write it (digits grouped by a narrow no-break space or a comma). */
const figure = (text: string) => Number(text.replace(/[\u202f,\s]/g, ''));

function bars(shown: Chart[], title: string): Record<string, number> {
  const chart = shown.find((c) => c.title === title);
  assert.ok(chart, `a chart "${title}" among ${shown.map((c) => c.title).join(', ')}`);
  return Object.fromEntries(chart.table.map((r) => [r.label, figure(r.text)]));
}

interface FrameworkRow { category: string; sub: string; volume: number; indicator: string; value: number; unit: string; sdgs: string; eu: string }

/** The framework document's own table of rows, as figures. */
async function frameworkRows(page: Page): Promise<FrameworkRow[]> {
  const cells = (await page.evaluate(`[...document.querySelectorAll('table.rows tbody tr')].map((tr) => [...tr.cells].map((c) => c.innerText))`)) as string[][];
  return cells.map(([category, sub, volume, , indicator, value, unit, sdgs, eu]) => ({ category: category!, sub: sub!, volume: figure(volume!), indicator: indicator!, value: figure(value!), unit: unit!, sdgs: sdgs!, eu: eu! }));
}

/** The charts say what the document's table says: sums per category (each sub category once), per indicator, per goal. */
function assertFrameworkCharts(shown: Chart[], rows: FrameworkRow[]): void {
  const subs = new Map(rows.map((r) => [r.sub, r]));
  const sum = (entries: [string, number][]) => entries.reduce<Record<string, number>>((acc, [k, v]) => ({ ...acc, [k]: (acc[k] ?? 0) + v }), {});
  assert.deepEqual(bars(shown, 'Volume by category (EUR)'), sum([...subs.values()].map((r) => [r.category, r.volume])));
  assert.deepEqual(bars(shown, 'Volume by category (EUR)'), { 'Renewable energy': 500_000, 'Clean transportation': 200_000 });
  assert.deepEqual(bars(shown, 'Indicator value per indicator (tCO2e)'), { 'GHG emissions avoided': 80 });
  assert.deepEqual(bars(shown, 'Indicator value per indicator (MWh)'), sum(rows.filter((r) => r.unit === 'MWh').map((r) => [r.indicator, r.value])));
  const goal = (text: string) => text.split('\n').filter(Boolean);
  const bySdg = sum([...subs.values()].flatMap((r) => goal(r.sdgs).map((g) => [`SDG ${g}`, r.volume] as [string, number])));
  assert.deepEqual(bars(shown, 'Volume by SDG (EUR)'), bySdg);
  assert.deepEqual(Object.values(bySdg).sort(), [200_000, 500_000]);
  assert.deepEqual(Object.values(bars(shown, 'Volume by EU environmental objective (EUR)')), [700_000]);
}

interface ImpactRow { category: string; sub: string; indicator: string; unit: string; impact: number; attributed: number }

const IMPACT_ROWS = `[...[...document.querySelectorAll('section')].find((s) => s.querySelector('h2').textContent === 'Impacts').querySelectorAll('tbody tr')].map((tr) => {
  const c = [...tr.cells].map((td) => td.innerText);
  return { category: c[0], sub: c[1], indicator: c[3], unit: c[4], impact: Number(c[7].replace(/[\\u202f,\\s]/g, '')), attributed: Number(c[8].replace(/[\\u202f,\\s]/g, '')) };
})`;

/** The position's charts say what its impacts table says. */
function assertImpactCharts(shown: Chart[], rows: ImpactRow[]): void {
  assert.ok(rows.length > 0);
  const subs = new Map(rows.map((r) => [r.sub, r]));
  const sum = (entries: [string, number][]) => entries.reduce<Record<string, number>>((acc, [k, v]) => ({ ...acc, [k]: Math.round(((acc[k] ?? 0) + v) * 100) / 100 }), {});
  assert.deepEqual(bars(shown, 'Attributed volume by category (EUR)'), sum([...subs.values()].map((r) => [r.category, r.attributed])));
  for (const unit of new Set(rows.map((r) => r.unit))) {
    assert.deepEqual(bars(shown, `Impact per indicator (${unit})`), sum(rows.filter((r) => r.unit === unit).map((r) => [r.indicator, r.impact])));
  }
}

/** The report's totals per indicator: name, unit, impact as written. */
const TOTALS = `[...[...document.querySelectorAll('h2')].find((h) => h.textContent === 'Totals per indicator').nextElementSibling.querySelectorAll('tbody tr')].map((tr) => [...tr.cells].slice(0, 3).map((c) => c.innerText))`;

/** The first page's size of a PDF Chromium printed, in points. */
function pageBox(pdf: Buffer): [number, number] | undefined {
  assert.equal(pdf.subarray(0, 5).toString(), '%PDF-');
  const box = /\/MediaBox \[0 0 ([\d.]+) ([\d.]+)\]/.exec(pdf.toString('latin1'));
  return box ? [Math.round(Number(box[1])), Math.round(Number(box[2]))] : undefined;
}
