import type { ImpactRecord, ImpactTotal, VolumeTotal } from '@green-impact/proto/greenimpact/portfolio/v1/portfolio';
import { CHART_STYLE } from '@green-impact/shared/charts/bar-chart';
import { renderImpactCharts, type ImpactChartRow } from '@green-impact/shared/charts/impact-charts';
import { formatAmount, formatFigure, formatRatio, RATIO_DECIMALS } from '@green-impact/shared/figures';
import { escapeHtml, html, Html } from '@green-impact/shared/html';
import { page, pdfLink, PDF_LINK_STYLE } from '@green-impact/shared/page';

/**
 * The impact report page of a portfolio or of an investor (RenderImpactReportPage; the gateway serves it at
 * GET /reports/…, report-routes.ts), as ICMA's
 * Harmonised Framework has issuers report and investors read it: the totals per indicator and per sub
 * category, charts of them, the attribution of every position (P_f, D, P_f ÷ D, τ, FX rate) and each
 * record with its inputs, so any figure can be recomputed from the page. Pure.
 */

export interface ImpactReport {
  kind: 'portfolio' | 'investor';
  /** The portfolio's or the investor's identifier. */
  identifier: string;
  investorIdentifier: string;
  year: number;
  totals: ImpactTotal[];
  volumeTotals: VolumeTotal[];
  records: ImpactRecord[];
  positionsWithoutImpacts: number[];
  stalePositions: number;
}

/** Decimals of the page's figures (shared/figures.ts writes them, as every document does); ratios have RATIO_DECIMALS. */
const DECIMALS = 2;
const figure = (value: number) => formatFigure(value, DECIMALS);
const amount = (value: number, currencyCode: string) => formatAmount(value, DECIMALS, currencyCode);

const STYLE = `
main{max-width:78rem}
table.grid th{width:auto}
td.n,th.n{text-align:right;white-space:nowrap;font-variant-numeric:tabular-nums}
table.grid{font-size:.9rem;margin-bottom:1rem}
.formula{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.9em}
${CHART_STYLE}
@page{size:A4 landscape;margin:12mm}
@media print{body{background:#fff}main{max-width:none;margin:0;border:0;padding:0}table{page-break-inside:auto}thead{display:table-header-group}tr,figure{break-inside:avoid}h2{break-after:avoid}}
${PDF_LINK_STYLE}
`;

const n = (value: number | string) => html`<td class="n">${value}</td>`;
/** A ratio (FX rate, share, τ): RATIO_DECIMALS decimals, one line like every figure. */
const ratio = (value: number) => n(formatRatio(value));
const headN = (label: string) => html`<th scope="col" class="n">${label}</th>`;
const head = (label: string) => html`<th scope="col">${label}</th>`;

/** One line per position: what it holds and the inputs of its attribution. */
function positions(records: ImpactRecord[]): Html {
  const byPosition = new Map<number, ImpactRecord>();
  for (const r of records) if (!byPosition.has(r.positionId)) byPosition.set(r.positionId, r);
  const rows = [...byPosition.values()].sort((a, b) => a.positionId - b.positionId);
  return html`<table class="grid"><caption>Attribution of each position: share = P_f ÷ D, then times τ</caption>
<thead><tr>${head('Position')}${head('Asset')}${head('Framework')}${headN('Amount held')}${headN('FX rate')}${headN('P_f')}${headN('D')}${headN('Share P_f ÷ D')}${headN('Days held / in year')}${headN('τ')}${head('Computed at')}</tr></thead>
<tbody>${rows.map(
    (r) => html`<tr><th scope="row">${r.positionId}</th><td>${r.assetIdentifier}</td><td>${r.frameworkIdentifier}</td>${n(amount(r.positionAmount, r.positionCurrencyCode))}${ratio(r.fxRate)}${n(amount(r.positionAmountFrameworkCurrency, r.frameworkCurrencyCode))}${n(amount(r.attributionDenominator, r.frameworkCurrencyCode))}${ratio(r.attributionDenominator > 0 ? r.positionAmountFrameworkCurrency / r.attributionDenominator : 0)}${n(
      `${r.holdingDaysInYear} / ${r.daysInYear}`,
    )}${ratio(r.tau)}<td>${r.computedAt}${r.stale ? ' (stale: a recompute is on its way)' : ''}</td></tr>`,
  )}</tbody></table>`;
}

/** Every record: the figure and the framework values it is made of. */
function records(all: ImpactRecord[]): Html {
  const sorted = [...all].sort((a, b) => a.positionId - b.positionId || a.subCategoryId - b.subCategoryId || a.indicatorId - b.indicatorId);
  return html`<table class="grid"><caption>Impact of each position per sub category k and indicator i: impact = τ · (P_f ÷ D) · x(k,i); attributed volume = τ · (P_f ÷ D) · s(k)</caption>
<thead><tr>${head('Position')}${head('Category')}${head('Sub category')}${head('Indicator')}${head('Unit')}${headN('x(k,i)')}${headN('s(k)')}${headN('Impact')}${headN('Attributed volume')}</tr></thead>
<tbody>${sorted.map(
    (r) => html`<tr><th scope="row">${r.positionId}</th><td>${r.categoryName}</td><td>${r.subCategoryName}</td><td>${r.indicatorName}</td><td>${r.unitName}</td>${n(figure(r.indicatorValue))}${n(amount(r.subCategoryVolume, r.frameworkCurrencyCode))}${n(figure(r.value))}${n(amount(r.attributedVolume, r.frameworkCurrencyCode))}</tr>`,
  )}</tbody></table>`;
}

function charts(all: ImpactRecord[]): Html {
  const rows: (ImpactChartRow & { currency: string })[] = all.map((r) => ({
    category: r.categoryName,
    // A position's attributed volume of a sub category repeats on each of its indicator records.
    subCategoryKey: `${r.positionId}:${r.subCategoryId}`,
    volume: r.attributedVolume,
    indicatorKey: String(r.indicatorId),
    indicator: r.indicatorName,
    unit: r.unitName,
    value: r.value,
    currency: r.frameworkCurrencyCode,
  }));
  const base = { volumeName: 'Attributed volume', valueName: 'Impact', sdg: false, euObjectives: false, format: (x: number) => escapeHtml(figure(x)) };
  // Volumes of different framework currencies share no scale: one allocation chart per currency.
  const currencies = [...new Set(rows.map((r) => r.currency))].sort();
  const parts = [
    ...currencies.map((currency) => renderImpactCharts(rows.filter((r) => r.currency === currency), { ...base, currency, only: 'allocation', idPrefix: `${currency.toLowerCase()}-` })),
    renderImpactCharts(rows, { ...base, currency: '', only: 'indicators' }),
  ];
  return new Html(parts.join('\n'));
}

/** The page; `pdfUrl`: where its PDF is (pages/pdf.ts), linked when given. */
export function impactReportPage(r: ImpactReport, pdfUrl?: string): string {
  const what = r.kind === 'portfolio' ? `portfolio ${r.identifier}` : `investor ${r.identifier}`;
  const positionCount = new Set(r.records.map((x) => x.positionId)).size;
  const body = html`${pdfUrl ? pdfLink(pdfUrl) : ''}
<p>${positionCount} ${positionCount === 1 ? 'position' : 'positions'} with impacts in ${r.year}${r.kind === 'portfolio' ? html`, held by investor ${r.investorIdentifier}` : ''}. Each position is credited with its share of what its asset's framework financed: <span class="formula">impact = τ · (P_f ÷ D) · x</span>, P_f the amount held in the framework's currency at the year's FX rate, D the framework's value outstanding (or the larger of it and the allocated amount), τ the part of the year it was held.</p>
${r.positionsWithoutImpacts.length ? html`<p class="note">Not computed for ${r.year} yet, so not counted: positions ${r.positionsWithoutImpacts.join(', ')}.</p>` : ''}
${r.stalePositions ? html`<p class="note">${r.stalePositions} ${r.stalePositions === 1 ? 'position has' : 'positions have'} figures computed before a change of their framework or an FX rate; a recompute is on its way.</p>` : ''}
<h2>Totals per indicator</h2>
<table class="grid"><thead><tr>${head('Indicator')}${head('Unit')}${headN('Impact')}${headN('Positions')}</tr></thead>
<tbody>${r.totals.map((t) => html`<tr><th scope="row">${t.indicatorName}</th><td>${t.unitName}</td>${n(figure(t.value))}${n(t.positionCount)}</tr>`)}</tbody></table>
<h2>Attributed volume per sub category</h2>
<table class="grid"><thead><tr>${head('Sub category')}${headN('Attributed volume')}</tr></thead>
<tbody>${r.volumeTotals.map((v) => html`<tr><th scope="row">${v.subCategoryName}</th>${n(amount(v.attributedVolume, v.currencyCode))}</tr>`)}</tbody></table>
${r.records.length ? html`<h2>Charts</h2>${charts(r.records)}` : ''}
<h2>Positions</h2>
${r.records.length ? positions(r.records) : html`<p>No position has impacts for ${r.year}.</p>`}
<h2>Every figure and its inputs</h2>
${r.records.length ? records(r.records) : ''}
<p class="sub">Figures rounded to ${DECIMALS} decimals, ratios (FX rate, share, τ) to ${RATIO_DECIMALS}. Read from the portfolio service when this page was served.</p>`;
  return page(`Impact report ${r.year}: ${what}`, body, r.kind === 'portfolio' ? `Investor ${r.investorIdentifier}` : undefined, STYLE);
}
