import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { renderEuGbsAllocationReport, type EuGbsAllocationReportInput } from './allocation-report.js';
import { taxonomyLayer } from './taxonomy-layer.js';
import { renderEuGbsFactsheet, renderEuGbsImpactReport } from './factsheet.js';

import type { EuGbsImpact } from './page.js';

const layer = (code: string, name: string, extra: object = {}) => taxonomyLayer({
  activityCode: code, activityName: name, objective: 'climate_change_mitigation', assetType: 'capex',
  technicalScreeningMet: true, doNoSignificantHarmMet: true, minimumSafeguardsMet: true, ...extra,
});

/**
 * Worked example, by hand. Proceeds 1 000 EUR. P-1 solar 400 aligned; P-2 wind 300, DNSH not met;
 * P-3 building 100 in the Article 5 pocket (objective adaptation); P-4 50 not assessed.
 * Allocated 850, unallocated 150. Aligned 400 / 850 = 47.06 %; Article 5 100 / 850 = 11.76 %.
 * By objective: mitigation 400 + 300 = 700, adaptation 100.
 */
const input: EuGbsAllocationReportInput = {
  bondName: 'Green <Bond> 2030', isins: ['XS0000000009'], issuerLei: 'HWUPKR0MPOU8FGXBT394', externalReviewer: 'Reviewer & Co',
  approvingAuthority: null, currencyCode: 'EUR', publicationDate: '2025-03-31', reportingPeriodStart: '2024-01-01',
  reportingPeriodEnd: '2024-12-31', proceeds: 1000, unallocatedPlacement: 'Cash and money-market funds',
  allocations: [
    { projectIdentifier: 'P-4', projectName: 'Unassessed', countryCode: null, financingType: null, amount: 50, layer: null },
    { projectIdentifier: 'P-2', projectName: 'Wind', countryCode: 'DK', financingType: 'refinancing', amount: 300, layer: layer('4.3', 'Electricity generation from wind power', { doNoSignificantHarmMet: false }) },
    { projectIdentifier: 'P-1', projectName: 'Solar', countryCode: 'SE', financingType: 'financing', amount: 400, layer: layer('4.1', 'Electricity generation using solar photovoltaic technology') },
    { projectIdentifier: 'P-3', projectName: 'Building', countryCode: 'FR', financingType: 'financing', amount: 100, layer: layer('7.7', 'Acquisition and ownership of buildings', { article5: true, objective: 'climate_change_adaptation', assetType: 'fixed_asset' }) },
  ],
};

const row = (html: string, heading: string) => new RegExp(`<tr><th>${heading}</th><td class="n">([^<]*)</td></tr>`).exec(html)?.[1];

describe('EU GBS allocation report (Annex II)', () => {
  it('writes the hand-computed totals, shares and statements', () => {
    const html = renderEuGbsAllocationReport(input);
    assert.equal(row(html, 'Total proceeds'), '1\u202f000.00');
    assert.equal(row(html, 'Allocated'), '850.00');
    assert.equal(row(html, 'Unallocated'), '150.00');
    assert.equal(row(html, 'Taxonomy-aligned share of allocated proceeds'), '47.06\u202f%');
    assert.equal(row(html, 'Article 5 share of allocated proceeds'), '11.76\u202f%');
    assert.equal(row(html, 'Not assessed'), '50.00');
    assert.match(html, /Article 5 of Regulation \(EU\) 2023\/2631 for 11\.76\u202f% of the allocated proceeds \(100\.00\u00a0EUR\)/);
    assert.match(html, /<h2>1\. General information<\/h2>/);
    assert.match(html, /<h2>2\. Important information<\/h2>/);
    assert.match(html, /<h2>3–4\. Allocation of proceeds<\/h2>/);
    assert.match(html, /Green &lt;Bond&gt; 2030/);
    assert.match(html, /Reviewer &amp; Co/);
    assert.match(html, /@page\{size:A4/);
    // Rows in identifier order, each with its status.
    const ids = [...html.matchAll(/<tr><td>(P-\d)<\/td>/g)].map((m) => m[1]);
    assert.deepEqual(ids, ['P-1', 'P-2', 'P-3', 'P-4']);
    assert.match(html, /<td>P-2<\/td>.*<td>Not aligned<\/td><td class="n">300\.00<\/td>/);
    assert.match(html, /<td>P-3<\/td>.*<td>Article 5<\/td><td class="n">100\.00<\/td>/);
    // The chart's data table: mitigation 700, adaptation 100.
    assert.match(html, /Climate change mitigation<\/t[hd]><td[^>]*>700\.00/);
    assert.match(html, /Climate change adaptation<\/t[hd]><td[^>]*>100\.00/);
  });

  it('gives the same bytes for the same input, whatever the allocations\' order', () => {
    const hash = (i: EuGbsAllocationReportInput) => createHash('sha256').update(renderEuGbsAllocationReport(i)).digest('hex');
    assert.equal(hash(input), hash({ ...input, allocations: [...input.allocations].reverse() }));
  });

  it('has no Article 5 statement when the pocket is not used', () => {
    const html = renderEuGbsAllocationReport({ ...input, allocations: input.allocations.filter((a) => a.projectIdentifier !== 'P-3') });
    assert.doesNotMatch(html, /flexibility of Article 5/);
    assert.equal(row(html, 'Article 5 share of allocated proceeds'), '0.00\u202f%');
  });
});

/**
 * Impacts, by hand: GHG avoided (tCO2e) P-1 250 + P-2 120 + P-3 −30 (a negative impact) = 340;
 * renewable energy (MWh) P-1 500 + P-2 800 = 1 300.
 */
const impacts: EuGbsImpact[] = [
  { projectIdentifier: 'P-2', indicator: 'GHG avoided', unit: 'tCO2e', value: 120, methodology: 'GHG Protocol' },
  { projectIdentifier: 'P-1', indicator: 'Renewable energy', unit: 'MWh', value: 500, methodology: null },
  { projectIdentifier: 'P-3', indicator: 'GHG avoided', unit: 'tCO2e', value: -30, methodology: null },
  { projectIdentifier: 'P-1', indicator: 'GHG avoided', unit: 'tCO2e', value: 250, methodology: null },
  { projectIdentifier: 'P-2', indicator: 'Renewable energy', unit: 'MWh', value: 800, methodology: null },
];
const total = (html: string, indicator: string) => new RegExp(`<tr class="total"><td>${indicator}</td><td>[^<]*</td><td class="n">([^<]*)</td></tr>`).exec(html)?.[1];
const headings = (html: string) => [...html.matchAll(/<h2>([^<]*)<\/h2>/g)].map((m) => m[1]);

describe('EU GBS factsheet (Annex I) and impact report (Annex III)', () => {
  it('writes every section of Annex I, the intended allocation and the estimated impact totals', () => {
    const html = renderEuGbsFactsheet({ ...input, impacts, environmentalStrategy: 'Net zero by 2040.', reporting: null, otherInformation: null });
    assert.deepEqual(headings(html), ['1. General information', '2. Important information', '3. Environmental strategy and rationale', '4. Intended allocation of proceeds', '5. Environmental impact of proceeds (estimated)', '6. Reporting', '7. Other relevant information']);
    assert.equal(row(html, 'Taxonomy-aligned share of allocated proceeds'), '47.06\u202f%');
    assert.equal(total(html, 'GHG avoided'), '340.00');
    assert.equal(total(html, 'Renewable energy'), '1\u202f300.00');
    assert.match(html, /Net zero by 2040\./);
  });

  it('writes every section of Annex III with negative impacts signed, the same bytes for the same input', () => {
    const doc = (i: EuGbsImpact[]) => renderEuGbsImpactReport({ ...input, impacts: i, environmentalStrategy: null, otherInformation: null });
    const html = doc(impacts);
    assert.deepEqual(headings(html), ['1. General information', '2. Important information', '3. Environmental strategy and rationale', '4. Allocation of proceeds', '5. Environmental impact of bond proceeds', '6. Other relevant information']);
    assert.equal(row(html, 'Unallocated'), '150.00');
    assert.match(html, /<td>P-3<\/td><td>GHG avoided<\/td><td>tCO2e<\/td><td class="n">-30\.00<\/td>/);
    assert.equal(total(html, 'GHG avoided'), '340.00');
    assert.equal(doc(impacts), doc([...impacts].reverse()));
    assert.match(doc([]), /No impact recorded\./);
  });
});
