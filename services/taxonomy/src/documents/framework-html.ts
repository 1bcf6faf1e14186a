import type { FrameworkDetail, FrameworkRow, FrameworkSummary } from '@green-impact/proto/greenimpact/taxonomy/v1/taxonomy';
import { Visibility } from '@green-impact/proto/greenimpact/common/v1/common';
import { CHART_STYLE } from '@green-impact/shared/charts/bar-chart';
import { renderImpactCharts } from '@green-impact/shared/charts/impact-charts';
import { DEFAULT_LANGUAGE } from '../reference/languages.js';
import type { FrameworkRenderOptions } from './framework-options.js';
import { formatAmount, formatFigure, formatPercent } from '@green-impact/shared/figures';
import { escapeHtml as e } from '@green-impact/shared/html';
import { htmlLang } from './html.js';

/**
 * The framework document as a self-contained HTML page: inline CSS, no scripts, no external assets,
 * every text escaped, no timestamps (the same data gives the same bytes). Names come in the requested
 * language where translated; the page's own labels are English. SDG and EU objective columns appear
 * only when asked for.
 */
export function renderFrameworkHtml(detail: FrameworkDetail, o: FrameworkRenderOptions): string {
  const s = detail.frameworkSummary!;
  const title = `${s.frameworkName} (${s.frameworkIdentifier}), reporting year ${o.reportingYear}`;
  return [
    '<!DOCTYPE html>',
    `<html lang="${e(htmlLang(o.languageCode ?? DEFAULT_LANGUAGE))}">`,
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${e(title)}</title>`,
    `<style>${STYLE}</style>`,
    '</head>',
    '<body>',
    '<main>',
    `<h1>${e(s.frameworkName)}</h1>`,
    `<p class="subtitle">Green framework ${e(s.frameworkIdentifier)} · reporting year ${o.reportingYear}</p>`,
    summaryTable(s, o),
    ...(detail.framework.length ? ['<h2>Charts</h2>', charts(detail.framework, s.frameworkCurrencyCode, o)] : []),
    `<h2>Sub categories and indicators</h2>`,
    detail.framework.length ? rowsTable(detail.framework, s.frameworkCurrencyCode, o) : `<p class="empty">No rows for ${o.reportingYear}.</p>`,
    `<footer>Figures rounded to ${o.decimals} ${o.decimals === 1 ? 'decimal' : 'decimals'}; volumes in ${e(s.frameworkCurrencyCode)}, indicator values in their units.</footer>`,
    '</main>',
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

const STYLE = [
  'body{margin:0;background:#f5f7f5;color:#1c2321;font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif}',
  'main{max-width:78rem;margin:0 auto;padding:2rem 1.5rem}',
  'h1{font-size:1.6rem;margin:0 0 .25rem}',
  'h2{font-size:1.15rem;margin:2rem 0 .75rem}',
  '.subtitle,.empty,footer{color:#56605c}',
  'footer{margin-top:1.5rem;font-size:.85rem}',
  'table{border-collapse:collapse;background:#fff}',
  'th,td{border:1px solid #d3dbd7;padding:.4rem .6rem;text-align:left;vertical-align:top}',
  'thead th{background:#e3f0e8}',
  'table.summary th{background:#eef3f0;font-weight:600}',
  'table.rows{width:100%}',
  '.num{text-align:right;white-space:nowrap;font-variant-numeric:tabular-nums}',
  'ul{margin:0;padding:0;list-style:none}',
  CHART_STYLE,
].join('');

function summaryTable(s: FrameworkSummary, o: FrameworkRenderOptions): string {
  const amount = (x: number | undefined) =>
    x === undefined ? `<td>not given for ${o.reportingYear}</td>` : `<td class="num">${e(formatAmount(x, o.decimals, s.frameworkCurrencyCode))}</td>`;
  const percentage = s.frameworkActivePercentage === undefined
    ? `<td>not given for ${o.reportingYear}</td>`
    : `<td class="num">${formatPercent(s.frameworkActivePercentage, o.decimals)}</td>`;
  const proceeds = s.valueOutstandingFramework === undefined
    ? `not given for ${o.reportingYear}`
    : s.valueOutstandingFramework ? 'value outstanding' : 'allocated amount';
  const line = (label: string, cell: string) => `<tr><th scope="row">${label}</th>${cell}</tr>`;
  return [
    '<table class="summary">',
    '<tbody>',
    line('Framework identifier', `<td>${e(s.frameworkIdentifier)}</td>`),
    line('Framework name', `<td>${e(s.frameworkName)}</td>`),
    line('Currency', `<td>${e(s.frameworkCurrencyCode)}</td>`),
    line('Value outstanding', amount(s.frameworkValueOutstanding)),
    line('Allocated amount', amount(s.frameworkAllocatedAmount)),
    line('Active percentage', percentage),
    line('Use of proceeds relates to', `<td>${proceeds}</td>`),
    line('Visibility', `<td>${s.frameworkVisibility === Visibility.VISIBILITY_PUBLIC ? 'public' : 'private'}</td>`),
    '</tbody>',
    '</table>',
  ].join('\n');
}

/** Allocation by category, values per indicator, allocation by SDG and EU objective when the columns are shown. */
function charts(rows: FrameworkRow[], currency: string, o: FrameworkRenderOptions): string {
  return renderImpactCharts(
    rows.map((r) => ({
      category: r.categoryName,
      subCategoryKey: String(r.subCategoryId),
      volume: r.subCategoryVolume,
      indicatorKey: String(r.indicatorId),
      indicator: r.indicatorName,
      unit: r.unitName,
      value: r.indicatorValue,
      sdg: r.sdg,
      euObjective: r.euObjective,
    })),
    { currency, volumeName: 'Volume', valueName: 'Indicator value', sdg: o.sdgGoalsIncluded, euObjectives: o.euObjectivesIncluded, format: (x) => formatFigure(x, o.decimals) },
  );
}

function rowsTable(rows: FrameworkRow[], currency: string, o: FrameworkRenderOptions): string {
  const head = [
    '<th scope="col">Category</th>',
    '<th scope="col">Sub category</th>',
    `<th scope="col" class="num">Volume (${e(currency)})</th>`,
    '<th scope="col">Super indicator</th>',
    '<th scope="col">Indicator</th>',
    '<th scope="col" class="num">Value</th>',
    '<th scope="col">Unit</th>',
    ...(o.sdgGoalsIncluded ? ['<th scope="col">SDGs</th>'] : []),
    ...(o.euObjectivesIncluded ? ['<th scope="col">EU objectives</th>'] : []),
  ];
  const body = rows.map((r) =>
    [
      '<tr>',
      `<td>${e(r.categoryName)}</td>`,
      `<td>${e(r.subCategoryName)}</td>`,
      `<td class="num">${formatFigure(r.subCategoryVolume, o.decimals)}</td>`,
      `<td>${e(r.superIndicatorName)}</td>`,
      `<td>${e(r.indicatorName)}</td>`,
      `<td class="num">${formatFigure(r.indicatorValue, o.decimals)}</td>`,
      `<td>${e(r.unitName)}</td>`,
      ...(o.sdgGoalsIncluded ? [`<td>${goalList(r.sdg)}</td>`] : []),
      ...(o.euObjectivesIncluded ? [`<td>${goalList(r.euObjective)}</td>`] : []),
      '</tr>',
    ].join(''),
  );
  return ['<table class="rows">', `<thead><tr>${head.join('')}</tr></thead>`, '<tbody>', ...body, '</tbody>', '</table>'].join('\n');
}

/** Goal number → name, as a list in number order. */
function goalList(goals: Record<string, string>): string {
  const entries = Object.entries(goals).sort(([a], [b]) => Number(a) - Number(b) || a.localeCompare(b));
  if (entries.length === 0) return '';
  return `<ul>${entries.map(([no, name]) => `<li>${e(no)} ${e(name)}</li>`).join('')}</ul>`;
}
