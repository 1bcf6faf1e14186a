import { CHART_STYLE, renderBarChart } from '@green-impact/shared/charts/bar-chart';
import { formatAmount, formatFigure, formatPercent } from '@green-impact/shared/figures';
import { escapeHtml } from '@green-impact/shared/html';
import { isAligned, taxonomyAlignment, type TaxonomyAlignment, type TaxonomyLayer } from './taxonomy-layer.js';

/**
 * What the three EU GBS documents (Regulation (EU) 2023/2631, Annexes I–III) share: the A4 page, section 1
 * general information, section 2 important information, and the allocation of proceeds (Annex I §4 as
 * intended, Annexes II §3–4 and III §4 as allocated). Pure and deterministic: no clock (the publication date
 * is an input), rows in project identifier order, so the same input gives the same bytes.
 */
export interface EuGbsAllocation {
  projectIdentifier: string;
  projectName: string;
  countryCode: string | null;
  financingType: string | null;
  amount: number;
  layer: TaxonomyLayer | null;
}

export interface EuGbsBond {
  bondName: string;
  isins: string[];
  issuerLei: string | null;
  externalReviewer: string | null;
  approvingAuthority: string | null;
  currencyCode: string;
  /** YYYY-MM-DD; null when the caller gave none (the document then says "Not given"). */
  publicationDate: string | null;
  reportingPeriodStart: string | null;
  reportingPeriodEnd: string | null;
  /** Total proceeds of the bond, in its currency. */
  proceeds: number;
  unallocatedPlacement: string | null;
  allocations: EuGbsAllocation[];
}

export const PAGE_STYLE = [
  '@page{size:A4;margin:14mm 12mm}',
  'body{font:11pt/1.45 system-ui,sans-serif;color:#1b2b24;margin:0 auto;max-width:60rem;padding:1rem}',
  'table{border-collapse:collapse;width:100%;margin:.5rem 0 1rem}th,td{border:1px solid #d3dbd7;padding:.25rem .5rem;text-align:left}',
  'td.n{text-align:right;white-space:nowrap;font-variant-numeric:tabular-nums}',
  '@media print{body{padding:0}section{break-inside:avoid-page}}',
].join('');

export const OBJECTIVE_LABEL: Record<string, string> = {
  climate_change_mitigation: 'Climate change mitigation',
  climate_change_adaptation: 'Climate change adaptation',
  water_and_marine_resources: 'Sustainable use and protection of water and marine resources',
  circular_economy: 'Transition to a circular economy',
  pollution_prevention_and_control: 'Pollution prevention and control',
  biodiversity_and_ecosystems: 'Protection and restoration of biodiversity and ecosystems',
};

export const ASSET_LABEL: Record<string, string> = { fixed_asset: 'Fixed asset', capex: 'CapEx', opex: 'OpEx', financial_asset: 'Financial asset' };


export interface Writers {
  e: (text: string) => string;
  amount: (v: number) => string;
  /** An amount with its currency code after it, for prose (tables name the currency in their heading). */
  money: (v: number, currencyCode: string) => string;
  pct: (v: number | null) => string;
  opt: (v: string | null) => string;
}

export function writers(decimals: number): Writers {
  const e = escapeHtml;
  return {
    e,
    amount: (v) => e(formatFigure(v, decimals)),
    money: (v, currencyCode) => e(formatAmount(v, decimals, currencyCode)),
    pct: (v) => (v === null ? '–' : e(formatPercent(v, 2))),
    opt: (v) => (v === null || v === '' ? 'Not given' : e(v)),
  };
}

export function sortedAllocations(bond: EuGbsBond): EuGbsAllocation[] {
  return [...bond.allocations].sort((a, b) => (a.projectIdentifier < b.projectIdentifier ? -1 : a.projectIdentifier > b.projectIdentifier ? 1 : 0));
}

export function page(title: string, bond: EuGbsBond, sections: string[]): string {
  const { e } = writers(0);
  return [
    '<!DOCTYPE html>',
    `<html lang="en"><head><meta charset="utf-8"><title>${e(title)}: ${e(bond.bondName)}</title>`,
    `<style>${PAGE_STYLE}${CHART_STYLE}</style></head><body>`,
    `<h1>${e(title)}</h1>`,
    ...sections,
    '</body></html>',
    '',
  ].join('\n');
}

/** Section 1 of each annex. */
export function generalSection(bond: EuGbsBond, w: Writers): string {
  const { e, opt } = w;
  return [
    '<section><h2>1. General information</h2><table><tbody>',
    `<tr><th>Date of publication</th><td>${opt(bond.publicationDate)}</td></tr>`,
    `<tr><th>Period reported</th><td>${opt(bond.reportingPeriodStart)} to ${opt(bond.reportingPeriodEnd)}</td></tr>`,
    `<tr><th>Bond name</th><td>${e(bond.bondName)}</td></tr>`,
    `<tr><th>ISIN(s)</th><td>${bond.isins.length ? bond.isins.map(e).join(', ') : 'Not given'}</td></tr>`,
    `<tr><th>Issuer LEI</th><td>${opt(bond.issuerLei)}</td></tr>`,
    `<tr><th>External reviewer</th><td>${opt(bond.externalReviewer)}</td></tr>`,
    `<tr><th>Competent authority approving the prospectus</th><td>${opt(bond.approvingAuthority)}</td></tr>`,
    '</tbody></table></section>',
  ].join('\n');
}

/** Section 2 of each annex: the designation statement, and the Article 5 statement when the pocket is used. */
export function importantSection(bond: EuGbsBond, t: TaxonomyAlignment, w: Writers): string {
  const { money, pct } = w;
  const article5 = t.article5 > 0
    ? `<p>The issuer has used the flexibility of Article 5 of Regulation (EU) 2023/2631 for ${pct(t.article5Percent)} of the allocated proceeds (${money(t.article5, bond.currencyCode)}).</p>`
    : '';
  return [
    '<section><h2>2. Important information</h2>',
    '<p>This bond uses the designation “European Green Bond” or “EuGB” in accordance with Regulation (EU) 2023/2631.</p>',
    article5,
    '</section>',
  ].join('\n');
}

/** The allocation table, totals and chart by objective, under the given heading. */
export function allocationSection(heading: string, bond: EuGbsBond, w: Writers): string {
  const { e, amount, pct, opt } = w;
  const yes = (b: boolean) => (b ? 'Yes' : 'No');
  const rows = sortedAllocations(bond);
  const t = taxonomyAlignment(rows);
  const byObjective = new Map<string, number>();
  for (const r of rows) if (r.layer) byObjective.set(r.layer.objective, (byObjective.get(r.layer.objective) ?? 0) + r.amount);
  const chart = renderBarChart({
    id: 'eugbs-objectives',
    title: 'Allocated proceeds by environmental objective',
    description: `Allocated amount per environmental objective, in ${bond.currencyCode}.`,
    labelHeading: 'Environmental objective',
    valueHeading: `Allocated (${bond.currencyCode})`,
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
  return [
    `<section><h2>${e(heading)}</h2><table><thead><tr>`,
    ['Project', 'Name', 'Country', 'Financing or refinancing', 'Taxonomy activity', 'Environmental objective', 'Asset type', 'Technical screening criteria met', 'Do no significant harm met', 'Minimum safeguards met', 'Status', `Allocated (${e(bond.currencyCode)})`].map((h) => `<th>${h}</th>`).join(''),
    `</tr></thead><tbody>${rows.map(line).join('')}</tbody></table>`,
    '<table><tbody>',
    `<tr><th>Total proceeds</th><td class="n">${amount(bond.proceeds)}</td></tr>`,
    `<tr><th>Allocated</th><td class="n">${amount(t.allocated)}</td></tr>`,
    `<tr><th>Unallocated</th><td class="n">${amount(bond.proceeds - t.allocated)}</td></tr>`,
    `<tr><th>Taxonomy-aligned share of allocated proceeds</th><td class="n">${pct(t.alignedPercent)}</td></tr>`,
    `<tr><th>Article 5 share of allocated proceeds</th><td class="n">${pct(t.article5Percent)}</td></tr>`,
    `<tr><th>Not assessed</th><td class="n">${amount(t.unassessed)}</td></tr>`,
    `<tr><th>Where unallocated proceeds are placed</th><td>${opt(bond.unallocatedPlacement)}</td></tr>`,
    '</tbody></table>',
    chart,
    '</section>',
  ].join('\n');
}

/** One indicator value of one project (signed: a negative impact is a negative value). */
export interface EuGbsImpact {
  projectIdentifier: string;
  indicator: string;
  unit: string;
  value: number;
  methodology: string | null;
}

/** Impact per project and indicator, then the total per indicator and unit (positive and negative summed). */
export function impactSection(heading: string, impacts: readonly EuGbsImpact[], w: Writers): string {
  const { e, amount, opt } = w;
  const key = (i: EuGbsImpact) => `${i.indicator}\u0000${i.unit}`;
  const sorted = [...impacts].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : a.projectIdentifier < b.projectIdentifier ? -1 : a.projectIdentifier > b.projectIdentifier ? 1 : 0));
  const totals = new Map<string, { indicator: string; unit: string; total: number }>();
  for (const i of sorted) {
    const t = totals.get(key(i)) ?? { indicator: i.indicator, unit: i.unit, total: 0 };
    t.total += i.value;
    totals.set(key(i), t);
  }
  return [
    `<section><h2>${e(heading)}</h2>`,
    sorted.length === 0 ? '<p>No impact recorded.</p>' : [
      '<table><thead><tr><th>Project</th><th>Indicator</th><th>Unit</th><th>Value</th><th>Methodology</th></tr></thead><tbody>',
      sorted.map((i) => `<tr><td>${e(i.projectIdentifier)}</td><td>${e(i.indicator)}</td><td>${e(i.unit)}</td><td class="n">${amount(i.value)}</td><td>${opt(i.methodology)}</td></tr>`).join(''),
      '</tbody></table>',
      '<table><thead><tr><th>Indicator</th><th>Unit</th><th>Total</th></tr></thead><tbody>',
      [...totals.values()].map((t) => `<tr class="total"><td>${e(t.indicator)}</td><td>${e(t.unit)}</td><td class="n">${amount(t.total)}</td></tr>`).join(''),
      '</tbody></table>',
    ].join('\n'),
    '</section>',
  ].join('\n');
}

/** A free-text section the service does not hold yet: the text given, else "Not given". */
export function textSection(heading: string, text: string | null, w: Writers): string {
  return `<section><h2>${w.e(heading)}</h2><p>${w.opt(text)}</p></section>`;
}

/** A whole annex document: sections 1 and 2, then the annex's own sections. */
export function annexDocument(title: string, bond: EuGbsBond, decimals: number, rest: (w: Writers) => string[]): string {
  const w = writers(decimals);
  const t = taxonomyAlignment(sortedAllocations(bond));
  return page(title, bond, [generalSection(bond, w), importantSection(bond, t, w), ...rest(w)]);
}
