import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { canonicalJson } from '@green-impact/shared/canonical-json';
import { buildPositionDocument, documentJson, type PositionDocumentInput } from './position-document.js';
import { renderPositionHtml } from './position-html.js';

/** Golden files live with the sources; `UPDATE_GOLDEN=1 node --test …` rewrites them. */
function golden(name: string, actual: string): void {
  const url = new URL(`../../src/documents/golden/${name}`, import.meta.url);
  if (process.env['UPDATE_GOLDEN'] === '1') writeFileSync(url, actual);
  assert.equal(actual, readFileSync(url, 'utf8'), `${name} differs from its golden file (UPDATE_GOLDEN=1 rewrites it)`);
}

const tau = 184 / 366;
/** A fixed position: 100 000 SEK held from 1 July 2024 for 365 days; the framework of the service tests. */
export const FIXED: PositionDocumentInput = {
  reportingYear: 2024,
  languageCode: 'en',
  decimals: 2,
  sdgGoalsIncluded: true,
  euObjectivesIncluded: true,
  position: { id: 42, amount: 100_000, currencyCode: 'SEK', days: 365, startDate: '2024-07-01' },
  investor: { identifier: 'inv_abcdefghij234567klmn', name: 'Åsa <Fund> & "Partners"', email: 'asa@example.org' },
  asset: {
    identifier: 'SE0000000001',
    name: 'Green Bond 2029',
    issuerIdentifier: 'ISSUER-A',
    issuerName: 'Issuer A AB',
    currencyCode: 'SEK',
    valueOutstanding: 10_000_000,
    dateIssued: '2024-03-01',
    dateMaturity: '2029-03-01',
  },
  computation: {
    frameworkIdentifier: 'GB-GREEN',
    frameworkName: 'Green Bond Framework',
    frameworkCurrencyCode: 'EUR',
    valueOutstanding: 2_000_000,
    allocatedAmount: 2_500_000,
    valueOutstandingFramework: false,
    denominator: 2_500_000,
    fxRate: 0.08,
    positionAmountFramework: 8_000,
    holdingStart: '2024-07-01',
    positionDays: 365,
    holdingDaysInYear: 184,
    daysInYear: 366,
    tau,
    computedAt: '2025-01-15T10:00:00.000Z',
  },
  rows: [
    {
      categoryId: 1, categoryName: 'Renewable energy', subCategoryId: 2, subCategoryName: 'Solar power', superIndicatorId: 5,
      superIndicatorName: 'GHG emissions', indicatorId: 7, indicatorName: 'GHG avoided', unitId: 3, unitName: 'tCO2e',
      indicatorValue: 12_500, subCategoryVolume: 1_000_000, value: 0.0032 * tau * 12_500, attributedVolume: 0.0032 * tau * 1_000_000,
      sdg: { '7': 'Affordable and Clean Energy', '13': 'Climate Action' }, euObjective: { '1': 'Climate change mitigation' },
    },
    {
      categoryId: 1, categoryName: 'Renewable energy', subCategoryId: 2, subCategoryName: 'Solar power', superIndicatorId: 6,
      superIndicatorName: 'Energy', indicatorId: 8, indicatorName: 'Renewable energy generated', unitId: 4, unitName: 'MWh',
      indicatorValue: 4_000, subCategoryVolume: 1_000_000, value: 0.0032 * tau * 4_000, attributedVolume: 0.0032 * tau * 1_000_000,
      sdg: { '7': 'Affordable and Clean Energy', '13': 'Climate Action' }, euObjective: { '1': 'Climate change mitigation' },
    },
    {
      categoryId: 1, categoryName: 'Renewable energy', subCategoryId: 9, subCategoryName: 'Wind power', superIndicatorId: 5,
      superIndicatorName: 'GHG emissions', indicatorId: 7, indicatorName: 'GHG avoided', unitId: 3, unitName: 'tCO2e',
      indicatorValue: 3_000, subCategoryVolume: 500_000, value: 0.0032 * tau * 3_000, attributedVolume: 0.0032 * tau * 500_000,
      sdg: {}, euObjective: {},
    },
  ],
};

describe('position impacts document', () => {
  it('renders the fixed position as canonical JSON (golden)', () => {
    const json = canonicalJson(documentJson(buildPositionDocument(FIXED)));
    golden('position-impacts.json', json);
    const doc = JSON.parse(json);
    // 0.0032 · 184/366 · 12 500 = 20.109…; the GHG total adds the wind row: 0.0032 · 184/366 · 15 500 = 24.9355…
    assert.equal(doc.impacts[0].impact, 20.11);
    assert.equal(doc.totals.find((t: { indicator_id: number }) => t.indicator_id === 7).impact, 24.94);
    assert.equal(doc.attribution.tau, tau);
    assert.equal(doc.attribution.holding_last_day, '2025-06-30');
    assert.deepEqual(Object.keys(doc.impacts[0].sdg), ['7', '13']);
  });

  it('renders the fixed position as a self-contained HTML page (golden)', () => {
    const html = renderPositionHtml(buildPositionDocument(FIXED));
    golden('position-impacts.html', html);
    assert.ok(html.includes('Åsa &lt;Fund&gt; &amp; &quot;Partners&quot;'));
    assert.ok(!html.includes('<Fund>'));
    assert.ok(!/<script|<link|src=|href=/i.test(html), 'no scripts or external resources');
  });

  it('leaves out PII, SDGs and EU objectives when they are not asked for', () => {
    const doc = buildPositionDocument({
      ...FIXED,
      languageCode: undefined,
      sdgGoalsIncluded: false,
      euObjectivesIncluded: false,
      investor: { identifier: FIXED.investor!.identifier },
    });
    const json = canonicalJson(documentJson(doc));
    assert.ok(!json.includes('Åsa') && !json.includes('asa@example.org'));
    assert.ok(!json.includes('"sdg"') && !json.includes('"eu_objective"') && !json.includes('language_code'));
    assert.deepEqual(JSON.parse(json).investor, { investor_identifier: 'inv_abcdefghij234567klmn' });
    const html = renderPositionHtml(doc);
    assert.ok(!html.includes('Investor name') && !html.includes('SDGs') && html.includes('<html lang="en">'), 'English labels, no language of names asked for');
  });

  it('carries no investor-identifying field when the investor is not to be written', () => {
    const doc = buildPositionDocument({ ...FIXED, investor: undefined });
    const json = canonicalJson(documentJson(doc));
    assert.ok(!json.includes('investor') && !json.includes(FIXED.investor!.identifier), json);
    const html = renderPositionHtml(doc);
    assert.ok(!html.includes('Investor') && !html.includes(FIXED.investor!.identifier));
  });

  it('applies decimals to amounts and impacts but not to ratios', () => {
    const doc = JSON.parse(canonicalJson(documentJson(buildPositionDocument({ ...FIXED, decimals: 0 }))));
    assert.deepEqual([doc.impacts[0].impact, doc.attribution.fx_rate, doc.attribution.attribution_share], [20, 0.08, 0.0032]);
    assert.equal(JSON.parse(canonicalJson(documentJson(buildPositionDocument({ ...FIXED, decimals: 4 })))).impacts[0].impact, 20.1093);
  });
});

describe('canonical JSON', () => {
  it('sorts keys at every level, drops undefined, and has no whitespace', () => {
    assert.equal(canonicalJson({ b: 1, a: [{ d: 'x', c: null }], e: undefined, é: true }), '{"a":[{"c":null,"d":"x"}],"b":1,"é":true}');
    assert.equal(canonicalJson({ n: -0, big: 1e21, small: 1e-7 }), '{"big":1e+21,"n":0,"small":1e-7}');
    assert.throws(() => canonicalJson({ n: Number.NaN }), RangeError);
  });
});
