import { CHART_STYLE } from '@green-impact/shared/charts/bar-chart';
import { renderImpactCharts } from '@green-impact/shared/charts/impact-charts';
import { formatAmount, formatFigure, formatRatio, RATIO_DECIMALS } from '@green-impact/shared/figures';
import { escapeHtml } from '@green-impact/shared/html';
import type { PositionDocument } from './position-document.js';

const CSS = `
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1b2b22;background:#f6f8f6;margin:0}
main{max-width:1100px;margin:0 auto;padding:24px}
h1{font-size:1.6rem;margin:0 0 4px}h2{font-size:1.15rem;margin:28px 0 8px;color:#1f5c3a}
p.sub{margin:0;color:#4a5d52}
table{border-collapse:collapse;width:100%;background:#fff}
th,td{border:1px solid #d5ded8;padding:6px 8px;text-align:left;vertical-align:top}
th{background:#e8f0eb;font-weight:600}
table.kv th{width:38%}
td.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
footer{margin-top:28px;color:#4f5f56;font-size:.85rem}
`.trim() + CHART_STYLE;

type Cell = string | { n: string };

/**
 * The position impacts document as one self-contained HTML page: inline CSS, no scripts, no external
 * resources, every text escaped. It shows what the JSON form holds, figures written by the shared
 * formatter (shared/figures.ts): ratios (FX rate, P_f ÷ D, τ) with RATIO_DECIMALS decimals, where the JSON
 * keeps them unrounded for audit.
 */
export function renderPositionHtml(doc: PositionDocument): string {
  const d = doc.decimals;
  const amount = (x: number) => ({ n: formatFigure(x, d) });
  const money = (x: number, currencyCode: string) => ({ n: formatAmount(x, d, currencyCode) });
  const ratio = (x: number) => ({ n: formatRatio(x) });
  const plain = (x: string | number | null | undefined) => (x === null || x === undefined ? '—' : String(x));
  const { position: p, investor: inv, asset: a, framework: f, attribution: at } = doc;
  const sdg = doc.impacts.some((r) => r.sdg !== undefined);
  const eu = doc.impacts.some((r) => r.eu_objective !== undefined);
  const goals = (g: Record<string, string> | undefined) =>
    Object.entries(g ?? {})
      .map(([no, name]) => `${no} ${name}`)
      .join('; ');

  const investorRows: [string, Cell][] = inv ? [['Investor identifier', inv.investor_identifier]] : [];
  if (inv?.investor_name !== undefined) investorRows.push(['Investor name', inv.investor_name]);
  if (inv?.investor_email !== undefined) investorRows.push(['Investor e-mail', inv.investor_email]);

  const impactHead = ['Category', 'Sub category', 'Super indicator', 'Indicator', 'Unit', 'x(k,i) framework value',
    `s(k) framework volume (${f.framework_currency_code})`, 'Impact', `Attributed volume (${f.framework_currency_code})`];
  if (sdg) impactHead.push('SDGs');
  if (eu) impactHead.push('EU objectives');

  const title = `Position impacts ${doc.reporting_year} — position ${p.position_id}`;
  return [
    '<!DOCTYPE html>',
    // The page's own labels are English: without a language of the names, the page is English.
    `<html lang="${escapeHtml(doc.language_code ?? 'en')}">`,
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)}</title>`,
    `<style>${CSS}</style>`,
    '</head>',
    '<body>',
    '<main>',
    `<h1>${escapeHtml(title)}</h1>`,
    `<p class="sub">${escapeHtml(`${a.asset_name} (${a.asset_identifier}) · ${f.framework_name} (${f.framework_identifier})`)}</p>`,
    section('Position', kv([
      ['Position id', String(p.position_id)],
      ['Amount', money(p.position_amount, p.position_currency_code)],
      ['Term (days)', { n: String(p.position_days) }],
      ['Start date', plain(p.position_start_date ?? `not given (1 January ${doc.reporting_year} assumed)`)],
      ...investorRows,
    ])),
    section('Asset', kv([
      ['Asset identifier', a.asset_identifier],
      ['Asset name', a.asset_name],
      ['Issuer', `${a.issuer_name} (${a.issuer_identifier})`],
      ['Value outstanding', a.asset_value_outstanding === null ? '—' : money(a.asset_value_outstanding, a.asset_currency_code)],
      ['Issued', plain(a.asset_date_issued)],
      ['Maturity', plain(a.asset_date_maturity)],
    ])),
    section('Framework', kv([
      ['Framework identifier', f.framework_identifier],
      ['Framework name', f.framework_name],
      ['Currency', f.framework_currency_code],
      ['V: value outstanding', amount(f.framework_value_outstanding)],
      ['L: allocated amount', amount(f.framework_allocated_amount)],
      ['Use of proceeds relates to value outstanding', f.value_outstanding_framework],
    ])),
    section('Attribution', kv([
      ['Formula', at.formula],
      ['FX rate (framework currency per position currency)', ratio(at.fx_rate)],
      [`P_f: position amount in ${f.framework_currency_code}`, amount(at.position_amount_framework_currency)],
      [`D: ${f.value_outstanding_framework === 'yes' ? 'V' : 'max(L, V)'}`, amount(at.attribution_denominator)],
      ['P_f ÷ D', ratio(at.attribution_share)],
      ['Holding', `${at.holding_start} – ${at.holding_last_day}`],
      ['τ: days held in the year ÷ days in the year', { n: `${at.holding_days_in_year} / ${at.days_in_year} = ${formatRatio(at.tau)}` }],
      ['Computed at', at.computed_at],
    ])),
    ...(doc.impacts.length ? [section('Charts', renderImpactCharts(doc.impacts.map((r) => ({
      category: r.category_name,
      subCategoryKey: String(r.sub_category_id),
      volume: r.attributed_volume,
      indicatorKey: String(r.indicator_id),
      indicator: r.indicator_name,
      unit: r.unit_name,
      value: r.impact,
      sdg: r.sdg,
      euObjective: r.eu_objective,
    })), { currency: f.framework_currency_code, volumeName: 'Attributed volume', valueName: 'Impact', sdg, euObjectives: eu, format: (x) => escapeHtml(formatFigure(x, d)) }))] : []),
    section('Impacts', grid(impactHead, doc.impacts.map((r) => {
      const cells: Cell[] = [r.category_name, r.sub_category_name, r.super_indicator_name, r.indicator_name, r.unit_name,
        amount(r.indicator_value), amount(r.sub_category_volume), amount(r.impact), amount(r.attributed_volume)];
      if (sdg) cells.push(goals(r.sdg));
      if (eu) cells.push(goals(r.eu_objective));
      return cells;
    }))),
    section('Totals per indicator', grid(['Indicator', 'Unit', 'Impact'], doc.totals.map((t) => [t.indicator_name, t.unit_name, amount(t.impact)]))),
    `<footer>${escapeHtml(`Document ${doc.document} version ${doc.document_version}; figures rounded to ${d} decimals, ratios to ${RATIO_DECIMALS}; the JSON form holds the ratios unrounded.`)}</footer>`,
    '</main>',
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

function section(heading: string, body: string): string {
  return `<section>\n<h2>${escapeHtml(heading)}</h2>\n${body}\n</section>`;
}

function cell(tag: 'td' | 'th', c: Cell): string {
  return typeof c === 'string' ? `<${tag}>${escapeHtml(c)}</${tag}>` : `<${tag} class="n">${escapeHtml(c.n)}</${tag}>`;
}

function kv(rows: [string, Cell][]): string {
  return `<table class="kv">\n${rows.map(([k, value]) => `<tr>${cell('th', k)}${cell('td', value)}</tr>`).join('\n')}\n</table>`;
}

function grid(head: string[], rows: Cell[][]): string {
  const body = rows.length ? rows.map((r) => `<tr>${r.map((c) => cell('td', c)).join('')}</tr>`).join('\n') : `<tr><td colspan="${head.length}">No rows.</td></tr>`;
  return `<table class="grid">\n<thead><tr>${head.map((h) => cell('th', h)).join('')}</tr></thead>\n<tbody>\n${body}\n</tbody>\n</table>`;
}
