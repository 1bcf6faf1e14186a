import { CHART_STYLE, renderBarChart } from '@green-impact/shared/charts/bar-chart';
import { escapeHtml } from '../../documents/html.js';
import { formatNumber } from '../../documents/numbers.js';
import { taxonomyAlignment, isAligned, type TaxonomyLayer } from './taxonomy-layer.js';

/**
 * The European Green Bond allocation report (Regulation (EU) 2023/2631, Annex II) as one HTML page: section 1
 * general information, section 2 important information (the designation statement and, when used, the
 * Article 5 statement), sections 3–4 allocation of proceeds (per allocation: project, country, taxonomy
 * activity, objective, asset type, alignment flags, amount; totals, aligned percentage, Article 5 share,
 * unallocated proceeds and where they are placed), with a bar chart of allocated amounts by objective.
 * Pure and deterministic: no clock (the publication date is an input), fixed ordering, so the same input
 * gives the same bytes, to be hashed and anchored like the framework documents. Not yet served (issue 37).
 */
export interface EuGbsAllocation {
  projectIdentifier: string;
  projectName: string;
  countryCode: string | null;
  financingType: string | null;
  amount: number;
  layer: TaxonomyLayer | null;
}

export interface EuGbsAllocationReportInput {
  bondName: string;
  isins: string[];
  issuerLei: string | null;
  externalReviewer: string | null;
  approvingAuthority: string | null;
  currencyCode: string;
  /** YYYY-MM-DD. */
  publicationDate: string;
  reportingPeriodStart: string | null;
  reportingPeriodEnd: string | null;
  /** Total proceeds of the bond, in its currency. */
  proceeds: number;
  unallocatedPlacement: string | null;
  allocations: EuGbsAllocation[];
}

const PAGE_STYLE = [
  '@page{size:A4;margin:14mm 12mm}',
  'body{font:11pt/1.45 system-ui,sans-serif;color:#1b2b24;margin:0 auto;max-width:60rem;padding:1rem}',
  'table{border-collapse:collapse;width:100%;margin:.5rem 0 1rem}th,td{border:1px solid #d3dbd7;padding:.25rem .5rem;text-align:left}',
  'td.n{text-align:right;font-variant-numeric:tabular-nums}',
  '@media print{body{padding:0}section{break-inside:avoid-page}}',
].join('');

const OBJECTIVE_LABEL: Record<string, string> = {
  climate_change_mitigation: 'Climate change mitigation',
  climate_change_adaptation: 'Climate change adaptation',
  water_and_marine_resources: 'Sustainable use and protection of water and marine resources',
  circular_economy: 'Transition to a circular economy',
  pollution_prevention_and_control: 'Pollution prevention and control',
  biodiversity_and_ecosystems: 'Protection and restoration of biodiversity and ecosystems',
};

const ASSET_LABEL: Record<string, string> = { fixed_asset: 'Fixed asset', capex: 'CapEx', opex: 'OpEx', financial_asset: 'Financial asset' };

export function renderEuGbsAllocationReport(input: EuGbsAllocationReportInput, decimals = 2): string {
  const e = escapeHtml;
  const amount = (v: number) => e(formatNumber(v, decimals));
  const pct = (v: number | null) => (v === null ? '–' : `${e(formatNumber(v, 2))} %`);
  const opt = (v: string | null) => (v === null || v === '' ? 'Not given' : e(v));
  const yes = (b: boolean) => (b ? 'Yes' : 'No');
  const rows = [...input.allocations].sort((a, b) => (a.projectIdentifier < b.projectIdentifier ? -1 : a.projectIdentifier > b.projectIdentifier ? 1 : 0));
  const t = taxonomyAlignment(rows);
  const unallocated = input.proceeds - t.allocated;
  const byObjective = new Map<string, number>();
  for (const r of rows) if (r.layer) byObjective.set(r.layer.objective, (byObjective.get(r.layer.objective) ?? 0) + r.amount);
  const chart = renderBarChart({
    id: 'eugbs-objectives',
    title: 'Allocated proceeds by environmental objective',
    description: `Allocated amount per environmental objective, in ${input.currencyCode}.`,
    labelHeading: 'Environmental objective',
    valueHeading: `Allocated (${input.currencyCode})`,
    bars: Object.keys(OBJECTIVE_LABEL).filter((o) => byObjective.has(o)).map((o) => ({ label: OBJECTIVE_LABEL[o]!, value: byObjective.get(o)! })),
    format: amount,
  });
  const line = (r: EuGbsAllocation) => {
    const l = r.layer;
    const cells = l
      ? [`${e(l.activityCode)} ${e(l.activityName)}`, e(OBJECTIVE_LABEL[l.objective]!), e(ASSET_LABEL[l.assetType]!), yes(l.technicalScreeningMet), yes(l.doNoSignificantHarmMet), yes(l.minimumSafeguardsMet), l.article5 ? 'Article 5' : isAligned(l) ? 'Aligned' : 'Not aligned']
      : ['Not assessed', '–', '–', '–', '–', '–', 'Not assessed'];
    return `<tr><td>${e(r.projectIdentifier)}</td><td>${e(r.projectName)}</td><td>${opt(r.countryCode)}</td><td>${opt(r.financingType)}</td>${cells.map((c) => `<td>${c}</td>`).join('')}<td class="n">${amount(r.amount)}</td></tr>`;
  };
  const article5Statement = t.article5 > 0
    ? `<p>The issuer has used the flexibility of Article 5 of Regulation (EU) 2023/2631 for ${pct(t.article5Percent)} of the allocated proceeds (${amount(t.article5)} ${e(input.currencyCode)}).</p>`
    : '';
  return [
    '<!DOCTYPE html>',
    `<html lang="en"><head><meta charset="utf-8"><title>European Green Bond allocation report: ${e(input.bondName)}</title>`,
    `<style>${PAGE_STYLE}${CHART_STYLE}</style></head><body>`,
    `<h1>European Green Bond allocation report</h1>`,
    '<section><h2>1. General information</h2><table><tbody>',
    `<tr><th>Date of publication</th><td>${e(input.publicationDate)}</td></tr>`,
    `<tr><th>Period reported</th><td>${opt(input.reportingPeriodStart)} to ${opt(input.reportingPeriodEnd)}</td></tr>`,
    `<tr><th>Bond name</th><td>${e(input.bondName)}</td></tr>`,
    `<tr><th>ISIN(s)</th><td>${input.isins.length ? input.isins.map(e).join(', ') : 'Not given'}</td></tr>`,
    `<tr><th>Issuer LEI</th><td>${opt(input.issuerLei)}</td></tr>`,
    `<tr><th>External reviewer</th><td>${opt(input.externalReviewer)}</td></tr>`,
    `<tr><th>Competent authority approving the prospectus</th><td>${opt(input.approvingAuthority)}</td></tr>`,
    '</tbody></table></section>',
    '<section><h2>2. Important information</h2>',
    '<p>This bond uses the designation “European Green Bond” or “EuGB” in accordance with Regulation (EU) 2023/2631.</p>',
    article5Statement,
    '</section>',
    '<section><h2>3–4. Allocation of proceeds</h2><table><thead><tr>',
    ['Project', 'Name', 'Country', 'Financing or refinancing', 'Taxonomy activity', 'Environmental objective', 'Asset type', 'Technical screening criteria met', 'Do no significant harm met', 'Minimum safeguards met', 'Status', `Allocated (${e(input.currencyCode)})`].map((h) => `<th>${h}</th>`).join(''),
    `</tr></thead><tbody>${rows.map(line).join('')}</tbody></table>`,
    '<table><tbody>',
    `<tr><th>Total proceeds</th><td class="n">${amount(input.proceeds)}</td></tr>`,
    `<tr><th>Allocated</th><td class="n">${amount(t.allocated)}</td></tr>`,
    `<tr><th>Unallocated</th><td class="n">${amount(unallocated)}</td></tr>`,
    `<tr><th>Taxonomy-aligned share of allocated proceeds</th><td class="n">${pct(t.alignedPercent)}</td></tr>`,
    `<tr><th>Article 5 share of allocated proceeds</th><td class="n">${pct(t.article5Percent)}</td></tr>`,
    `<tr><th>Not assessed</th><td class="n">${amount(t.unassessed)}</td></tr>`,
    `<tr><th>Where unallocated proceeds are placed</th><td>${opt(input.unallocatedPlacement)}</td></tr>`,
    '</tbody></table>',
    chart,
    '</section></body></html>',
    '',
  ].join('\n');
}
