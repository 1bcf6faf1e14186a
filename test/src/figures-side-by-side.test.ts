import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ImpactRecord } from '@green-impact/proto/greenimpact/portfolio/v1/portfolio';
import { Visibility } from '@green-impact/proto/greenimpact/common/v1/common';
import { buildPositionDocument, type PositionDocumentInput } from '@green-impact/portfolio/documents/position-document';
import { renderPositionHtml } from '@green-impact/portfolio/documents/position-html';
import { impactReportPage } from '@green-impact/portfolio/reports/impact-report-page';
import { renderFrameworkDocument } from '@green-impact/taxonomy/documents/render';
import { renderEuGbsAllocationReport } from '@green-impact/taxonomy/reports/eu-gbs/allocation-report';
import { taxonomyLayer } from '@green-impact/taxonomy/reports/eu-gbs/taxonomy-layer';

/**
 * One number, one rounding, one look (issue 46): the same figures rendered through every page and document
 * that shows them — the taxonomy's framework document, the portfolio's position document, the EU GBS
 * allocation report and the impact report page (rendered by the portfolio service, served by the gateway) — read the same. The figures are chosen where
 * formatters used to differ: 1 234 567.005 and 1.005 (binary toFixed gives …567.00 and 1.00, decimal
 * rounding …567.01 and 1.01), digit grouping (a comma or a narrow no-break space), the currency's place,
 * and the ratios τ = 184/366 and FX 1/11.5 (16 digits before).
 */

const BIG = 1_234_567.005;
const SMALL = 1.005;
const TAU = 184 / 366;
const FX = 1 / 11.5;

/** What each of them must show, written out by hand: U+202F groups digits, U+00A0 joins the currency. */
const BIG_TEXT = '1\u202f234\u202f567.01';
const BIG_AMOUNT = `${BIG_TEXT}\u00a0EUR`;
const SMALL_TEXT = '1.01';
const TAU_TEXT = '0.502732';
const FX_TEXT = '0.086957';

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };
/** The text of every table cell, tags dropped and entities read. */
function cells(html: string): string[] {
  return [...html.matchAll(/<td\b[^>]*>([\s\S]*?)<\/td>/g)].map((m) => m[1]!.replace(/<[^>]*>/g, '').replace(/&[a-z#0-9]+;/g, (e) => ENTITIES[e] ?? e).trim());
}
/** Every way the page writes BIG, whatever its grouping, decimals or currency placement. */
function bigShown(html: string): string[] {
  return [...html.matchAll(/1[\s,.\u202f\u00a0]?234[\s,.\u202f\u00a0]?567(?:[.,]\d+)?(?:[\s\u00a0]*EUR)?/g)].map((m) => m[0]);
}

function frameworkHtml(): string {
  const row = {
    categoryId: 1, categoryName: 'Renewable energy', subCategoryId: 2, subCategoryName: 'Solar power', subCategoryVolume: 500,
    frameworkCurrencyCode: 'EUR', superIndicatorId: 3, superIndicatorName: 'Energy', indicatorId: 4, indicatorName: 'Energy generated',
    indicatorValue: SMALL, unitId: 5, unitName: 'MWh', year: 2024, sdg: {}, euObjective: {}, language: 'English', languageCode: 'en',
  };
  const doc = renderFrameworkDocument({
    frameworkSummary: {
      frameworkId: 1, frameworkIdentifier: 'GBF', frameworkName: 'Green Bond Framework', frameworkValueOutstanding: BIG,
      frameworkAllocatedAmount: 1_000_000, frameworkActivePercentage: 90, frameworkCurrencyCode: 'EUR', valueOutstandingFramework: true,
      frameworkVisibility: Visibility.VISIBILITY_PUBLIC, reportingYear: 2024, owned: true,
    },
    framework: [row],
  }, 'html', { reportingYear: 2024, languageCode: null, decimals: 2, sdgGoalsIncluded: false, euObjectivesIncluded: false });
  return doc.content.toString('utf8');
}

function positionHtml(): string {
  const input: PositionDocumentInput = {
    reportingYear: 2024, languageCode: 'en', decimals: 2, sdgGoalsIncluded: false, euObjectivesIncluded: false,
    position: { id: 1, amount: BIG, currencyCode: 'EUR', days: 365, startDate: '2024-07-01' },
    investor: undefined,
    asset: { identifier: 'SE1', name: 'Green Bond', issuerIdentifier: 'I', issuerName: 'Issuer', currencyCode: 'EUR', valueOutstanding: 10_000_000, dateIssued: null, dateMaturity: null },
    computation: {
      frameworkIdentifier: 'GBF', frameworkName: 'Green Bond Framework', frameworkCurrencyCode: 'EUR', valueOutstanding: 20_000_000,
      allocatedAmount: 20_000_000, valueOutstandingFramework: true, denominator: 20_000_000, fxRate: FX, positionAmountFramework: BIG,
      holdingStart: '2024-07-01', positionDays: 365, holdingDaysInYear: 184, daysInYear: 366, tau: TAU, computedAt: '2025-01-15T10:00:00.000Z',
    },
    rows: [{
      categoryId: 1, categoryName: 'Renewable energy', subCategoryId: 2, subCategoryName: 'Solar power', superIndicatorId: 3,
      superIndicatorName: 'Energy', indicatorId: 4, indicatorName: 'Energy generated', unitId: 5, unitName: 'MWh',
      indicatorValue: SMALL, subCategoryVolume: 500, value: 0.02, attributedVolume: 10, sdg: {}, euObjective: {},
    }],
  };
  return renderPositionHtml(buildPositionDocument(input));
}

function euGbsHtml(): string {
  const layer = (article5: boolean) => taxonomyLayer({
    activityCode: '4.1', activityName: 'Solar photovoltaic', objective: 'climate_change_mitigation', assetType: 'capex',
    technicalScreeningMet: true, doNoSignificantHarmMet: true, minimumSafeguardsMet: true, article5,
  });
  return renderEuGbsAllocationReport({
    bondName: 'Green Bond 2030', isins: ['XS0000000009'], issuerLei: null, externalReviewer: null, approvingAuthority: null, currencyCode: 'EUR',
    publicationDate: '2025-03-31', reportingPeriodStart: '2024-01-01', reportingPeriodEnd: '2024-12-31', proceeds: 10 * BIG, unallocatedPlacement: null,
    allocations: [
      { projectIdentifier: 'P-1', projectName: 'Building', countryCode: null, financingType: null, amount: BIG, layer: layer(true) },
      { projectIdentifier: 'P-2', projectName: 'Solar', countryCode: null, financingType: null, amount: SMALL, layer: layer(false) },
    ],
  });
}

function reportPage(): string {
  const record: ImpactRecord = {
    id: 1, positionId: 1, reportingYear: 2024, investorIdentifier: 'inv', assetIdentifier: 'SE1', frameworkIdentifier: 'GBF',
    categoryId: 1, categoryName: 'Renewable energy', subCategoryId: 2, subCategoryName: 'Solar power', superIndicatorId: 3, superIndicatorName: 'Energy',
    indicatorId: 4, indicatorName: 'Energy generated', unitId: 5, unitName: 'MWh', value: 0.02, attributedVolume: 10, frameworkCurrencyCode: 'EUR',
    positionAmountFrameworkCurrency: BIG, attributionDenominator: 20_000_000, tau: TAU, fxRate: FX, positionAmount: BIG, positionCurrencyCode: 'EUR',
    indicatorValue: SMALL, subCategoryVolume: 500, frameworkValueOutstanding: 20_000_000, frameworkAllocatedAmount: 20_000_000,
    valueOutstandingFramework: true, holdingDaysInYear: 184, daysInYear: 366, computedAt: '2025-01-15T10:00:00.000Z', stale: false,
  };
  return impactReportPage({
    kind: 'portfolio', identifier: 'PF', investorIdentifier: 'inv', year: 2024,
    totals: [{ indicatorId: 4, indicatorName: 'Energy generated', unitId: 5, unitName: 'MWh', superIndicatorId: 3, superIndicatorName: 'Energy', value: SMALL, positionCount: 1 }],
    volumeTotals: [{ subCategoryId: 2, subCategoryName: 'Solar power', currencyCode: 'EUR', attributedVolume: BIG }],
    records: [record], positionsWithoutImpacts: [], stalePositions: 0,
  });
}

describe('the same figures on every page and document', () => {
  const rendered = { framework: frameworkHtml(), position: positionHtml(), euGbs: euGbsHtml(), report: reportPage() };

  it('write 1 234 567.005 EUR identically, rounded decimally, grouped by U+202F, the currency after a no-break space', () => {
    for (const [name, html] of Object.entries(rendered)) {
      const shown = bigShown(html);
      assert.ok(shown.length > 0, `${name} shows the figure`);
      for (const s of shown) assert.ok(s === BIG_TEXT || s === BIG_AMOUNT, `${name} writes ${JSON.stringify(s)}`);
    }
    // An amount with its currency, side by side: the framework's V, the position's amount, the report's P_f, the EU GBS statement.
    assert.ok(cells(rendered.framework).includes(BIG_AMOUNT));
    assert.ok(cells(rendered.position).includes(BIG_AMOUNT));
    assert.ok(cells(rendered.report).includes(BIG_AMOUNT));
    assert.ok(rendered.euGbs.includes(`(${BIG_AMOUNT})`), 'the Article 5 statement');
    // A figure under a heading that names the currency.
    assert.ok(cells(rendered.euGbs).includes(BIG_TEXT));
    assert.ok(cells(rendered.position).includes(BIG_TEXT), 'P_f, the currency in the row heading');
  });

  it('round 1.005 to 1.01 everywhere', () => {
    for (const [name, html] of Object.entries(rendered)) {
      assert.ok(cells(html).includes(SMALL_TEXT), `${name} shows ${SMALL_TEXT}`);
      assert.ok(!cells(html).includes('1.00'), `${name} never rounds 1.005 down`);
    }
  });

  it('write τ and the FX rate with six decimals on the position document and the report page alike', () => {
    for (const name of ['position', 'report'] as const) {
      const all = cells(rendered[name]);
      assert.ok(all.some((c) => c === TAU_TEXT || c.endsWith(` = ${TAU_TEXT}`)), `${name}: τ`);
      assert.ok(all.includes(FX_TEXT), `${name}: FX rate`);
      assert.ok(!rendered[name].includes(String(TAU)) && !rendered[name].includes(String(FX)), `${name}: no unrounded ratio`);
    }
  });
});
