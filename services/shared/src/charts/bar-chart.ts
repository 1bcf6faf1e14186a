/**
 * Horizontal bar charts for the written documents, as inline SVG: no script, no external asset, the same
 * figures give the same bytes (documents are hashed and anchored). Each chart is a `<figure>` whose SVG is
 * an image named by its `<title>` and described by its `<desc>`, followed by a table of the very figures
 * the bars show (hidden from the eye, read by screen readers, and what tests compare the bars with).
 * Pure.
 */
import { escapeHtml } from '../html.js';

export interface Bar {
  label: string;
  value: number;
}

export interface BarChartSpec {
  /** Unique in the page: the ids of the title, description and table derive from it. */
  id: string;
  title: string;
  description: string;
  /** Heading of the table's label column and of its value column. */
  labelHeading: string;
  valueHeading: string;
  bars: Bar[];
  /** A value as the document writes it, already HTML (a document's number format may carry entities). */
  format: (value: number) => string;
}

/** CSS the documents add for the charts. */
export const CHART_STYLE = [
  'figure.chart{margin:1rem 0 1.5rem;background:#fff;border:1px solid #d3dbd7;padding:.75rem 1rem}',
  'figure.chart figcaption{font-weight:600;margin:0 0 .5rem}',
  'figure.chart svg{display:block;width:100%;max-width:48rem;height:auto}',
  '.chart-data{position:absolute;width:1px;height:1px;margin:-1px;padding:0;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap;border:0}',
].join('');

const WIDTH = 720;
const LABEL_WIDTH = 260;
const BAR_AREA = 330;
const ROW = 26;
const BAR = 18;
const MAX_LABEL = 34;

/** The bar's length in the SVG's units: proportional to its value, the longest bar the whole area. */
export function barLength(value: number, max: number): number {
  if (!(max > 0) || !(value > 0)) return 0;
  return Math.round((value / max) * BAR_AREA * 100) / 100;
}

export function renderBarChart(c: BarChartSpec): string {
  const max = Math.max(0, ...c.bars.map((b) => b.value));
  const height = c.bars.length * ROW + 8;
  const ids = { title: `${c.id}-title`, desc: `${c.id}-desc` };
  const bars = c.bars.map((b, i) => {
    const y = 4 + i * ROW;
    const length = barLength(b.value, max);
    const label = b.label.length > MAX_LABEL ? `${b.label.slice(0, MAX_LABEL - 1)}…` : b.label;
    return [
      `<g class="bar" data-label="${escapeHtml(b.label)}">`,
      `<text x="${LABEL_WIDTH - 8}" y="${y + BAR - 5}" text-anchor="end">${escapeHtml(label)}</text>`,
      `<rect x="${LABEL_WIDTH}" y="${y}" width="${length}" height="${BAR}" fill="#2e7d4f" data-value="${b.value}"></rect>`,
      `<text x="${LABEL_WIDTH + length + 6}" y="${y + BAR - 5}">${c.format(b.value)}</text>`,
      '</g>',
    ].join('');
  });
  const rows = c.bars.map((b) => `<tr><th scope="row">${escapeHtml(b.label)}</th><td class="num" data-value="${b.value}">${c.format(b.value)}</td></tr>`);
  return [
    `<figure class="chart" id="${escapeHtml(c.id)}">`,
    `<figcaption>${escapeHtml(c.title)}</figcaption>`,
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${WIDTH} ${height}" width="${WIDTH}" height="${height}" role="img" aria-labelledby="${ids.title} ${ids.desc}" font-family="system-ui,sans-serif" font-size="13" fill="#1c2321">`,
    `<title id="${ids.title}">${escapeHtml(c.title)}</title>`,
    `<desc id="${ids.desc}">${escapeHtml(c.description)}</desc>`,
    `<line x1="${LABEL_WIDTH}" y1="0" x2="${LABEL_WIDTH}" y2="${height}" stroke="#56605c"></line>`,
    ...bars,
    '</svg>',
    `<table class="chart-data"><caption>${escapeHtml(c.title)}</caption>`,
    `<thead><tr><th scope="col">${escapeHtml(c.labelHeading)}</th><th scope="col">${escapeHtml(c.valueHeading)}</th></tr></thead>`,
    `<tbody>${rows.join('')}</tbody></table>`,
    '</figure>',
  ].join('\n');
}
